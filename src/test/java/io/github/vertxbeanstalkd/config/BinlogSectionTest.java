package io.github.vertxbeanstalkd.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class BinlogSectionTest {

  @Test
  void withoutBinlogKeysJobsStayInMemoryWithBeanstalkdDefaults() {
    BinlogSection c = BinlogSection.fromJson(new JsonObject().put("port", 11300));
    assertFalse(c.isEnabled());
    assertEquals(FsyncSetting.everyMillis(50), c.fsync());
    assertEquals(10L * 1024 * 1024, c.segmentSizeBytes());
    assertFalse(c.isRecoverRequested());
  }

  @Test
  void flatKeysAreRead() {
    BinlogSection c = BinlogSection.fromJson(new JsonObject().put("binlog.dir", "/var/lib/bs")
        .put("binlog.fsync", "always").put("binlog.segmentSize", 65536).put("binlog.recover", true));
    assertEquals(new BinlogSection(Path.of("/var/lib/bs"), FsyncSetting.always(), 65536, true), c);
  }

  @Test
  void nestedKeysAreReadAndFlatOnesWin() {
    JsonObject json = new JsonObject()
        .put("binlog", new JsonObject().put("dir", "/a").put("fsync", "never").put("segmentSize", "8192"))
        .put("binlog.dir", "/b");
    assertEquals(new BinlogSection(Path.of("/b"), FsyncSetting.never(), 8192, false),
        BinlogSection.fromJson(json));
  }

  @Test
  void environmentVariablesWinOverTheFile() {
    JsonObject json = new JsonObject().put("binlog.dir", "/file").put("binlog.fsync", "always")
        .put("BEANSTALKD_BINLOG_DIR", "/env").put("BEANSTALKD_BINLOG_FSYNC", "250")
        .put("BEANSTALKD_BINLOG_SEGMENT_SIZE", "65536").put("BEANSTALKD_BINLOG_RECOVER", "true");
    assertEquals(new BinlogSection(Path.of("/env"), FsyncSetting.everyMillis(250), 65536, true),
        BinlogSection.fromJson(json));
  }

  @Test
  void fsyncTakesAlwaysNeverOrMillisAndZeroMeansAlways() {
    assertEquals(FsyncSetting.always(), FsyncSetting.parse("always"));
    assertEquals(FsyncSetting.never(), FsyncSetting.parse("never"));
    assertEquals(FsyncSetting.everyMillis(200), FsyncSetting.parse(200));
    assertEquals(FsyncSetting.everyMillis(200), FsyncSetting.parse("200"));
    assertEquals(FsyncSetting.always(), FsyncSetting.parse(0));
  }

  @Test
  void badValuesAreRejectedInOneLineNamingTheKey() {
    assertMessage("config: 'binlog.fsync' must be \"always\", \"never\" or milliseconds, got sometimes",
        new JsonObject().put("binlog.fsync", "sometimes"));
    assertMessage("config: 'binlog.fsync' milliseconds must be between 0 and 3600000, got -5",
        new JsonObject().put("binlog.fsync", -5));
    assertMessage("config: 'binlog.segmentSize' must be between 4096 and 1073741824, got 100",
        new JsonObject().put("binlog.segmentSize", 100));
    assertMessage("config: 'binlog.segmentSize' must be a whole number, got 1.5",
        new JsonObject().put("binlog.segmentSize", 1.5));
    assertMessage("config: 'binlog.dir' must be a non-empty path, got ",
        new JsonObject().put("binlog.dir", ""));
    assertMessage("config: 'binlog.recover' must be true or false, got yes",
        new JsonObject().put("binlog.recover", "yes"));
    assertMessage("config: unknown key 'binlog.size'",
        new JsonObject().put("binlog", new JsonObject().put("size", 1)));
  }

  @Test
  void keysListsEveryKeyForTheServerConfigCheck() {
    assertTrue(ConfigSection.topLevelKeys(BinlogSection.SECTION, BinlogSection.KEYS)
        .containsAll(List.of("binlog", "binlog.dir", "binlog.fsync", "binlog.segmentSize", "binlog.recover")));
  }

  @Test
  void theServerConfigReadsTheSectionAndKnowsItsKeys() {
    ServerConfig c = ServerConfig.fromJson(new JsonObject().put("binlog", new JsonObject().put("dir", "/a"))
        .put("binlog.fsync", "never").put("BEANSTALKD_BINLOG_RECOVER", "true"));
    assertEquals(new BinlogSection(Path.of("/a"), FsyncSetting.never(), 10L * 1024 * 1024, true), c.binlog());
    assertTrue(ServerConfig.environmentVariables().containsAll(BinlogSection.ENVIRONMENT.keySet()));
  }

  @Test
  void theFsyncSettingReadsAsWritten() {
    assertEquals("always", FsyncSetting.always().toString());
    assertEquals("50ms", BinlogSection.DEFAULT_FSYNC.toString());
    assertEquals("never", FsyncSetting.never().toString());
  }

  private static void assertMessage(String message, JsonObject json) {
    var e = assertThrows(IllegalArgumentException.class, () -> BinlogSection.fromJson(json));
    assertEquals(message, e.getMessage());
  }
}
