package io.github.vertxbeanstalkd.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class BinlogConfigTest {

  @Test
  void withoutBinlogKeysJobsStayInMemoryWithBeanstalkdDefaults() {
    BinlogConfig c = BinlogConfig.fromJson(new JsonObject().put("port", 11300));
    assertFalse(c.isEnabled());
    assertEquals(new FsyncPolicy.Interval(50), c.fsync());
    assertEquals(10L * 1024 * 1024, c.segmentSizeBytes());
    assertFalse(c.isRecoverRequested());
  }

  @Test
  void flatKeysAreRead() {
    BinlogConfig c = BinlogConfig.fromJson(new JsonObject().put("binlog.dir", "/var/lib/bs")
        .put("binlog.fsync", "always").put("binlog.segmentSize", 65536).put("binlog.recover", true));
    assertEquals(new BinlogConfig(Path.of("/var/lib/bs"), new FsyncPolicy.Always(), 65536, true), c);
  }

  @Test
  void nestedKeysAreReadAndFlatOnesWin() {
    JsonObject json = new JsonObject()
        .put("binlog", new JsonObject().put("dir", "/a").put("fsync", "never").put("segmentSize", "8192"))
        .put("binlog.dir", "/b");
    assertEquals(new BinlogConfig(Path.of("/b"), new FsyncPolicy.Never(), 8192, false),
        BinlogConfig.fromJson(json));
  }

  @Test
  void environmentVariablesWinOverTheFile() {
    JsonObject json = new JsonObject().put("binlog.dir", "/file").put("binlog.fsync", "always")
        .put("BEANSTALKD_BINLOG_DIR", "/env").put("BEANSTALKD_BINLOG_FSYNC", "250")
        .put("BEANSTALKD_BINLOG_SEGMENT_SIZE", "65536").put("BEANSTALKD_BINLOG_RECOVER", "true");
    assertEquals(new BinlogConfig(Path.of("/env"), new FsyncPolicy.Interval(250), 65536, true),
        BinlogConfig.fromJson(json));
  }

  @Test
  void fsyncTakesAlwaysNeverOrMillisAndZeroMeansAlways() {
    assertEquals(new FsyncPolicy.Always(), FsyncPolicy.parse("always"));
    assertEquals(new FsyncPolicy.Never(), FsyncPolicy.parse("never"));
    assertEquals(new FsyncPolicy.Interval(200), FsyncPolicy.parse(200));
    assertEquals(new FsyncPolicy.Interval(200), FsyncPolicy.parse("200"));
    assertEquals(new FsyncPolicy.Always(), FsyncPolicy.parse(0));
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
    assertTrue(BinlogConfig.KEYS.containsAll(List.of("binlog.dir", "binlog.fsync", "binlog.segmentSize")));
  }

  private static void assertMessage(String message, JsonObject json) {
    var e = assertThrows(IllegalArgumentException.class, () -> BinlogConfig.fromJson(json));
    assertEquals(message, e.getMessage());
  }
}
