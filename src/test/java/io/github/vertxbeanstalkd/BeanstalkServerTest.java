package io.github.vertxbeanstalkd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.config.BinlogSection;
import io.github.vertxbeanstalkd.config.FsyncSetting;
import io.github.vertxbeanstalkd.persistence.BinlogConfig;
import io.github.vertxbeanstalkd.persistence.FsyncPolicy;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class BeanstalkServerTest {

  @Test
  void theBinlogSectionReachesThePersistenceLayerUnchanged() {
    Path dir = Path.of("/var/lib/bs");
    assertEquals(new BinlogConfig(dir, new FsyncPolicy.Always(), 8192, true),
        BeanstalkServer.binlogConfig(new BinlogSection(dir, FsyncSetting.always(), 8192, true)));
    assertEquals(new BinlogConfig(dir, new FsyncPolicy.Interval(250), 65536, false),
        BeanstalkServer.binlogConfig(new BinlogSection(dir, FsyncSetting.everyMillis(250), 65536, false)));
    assertEquals(new BinlogConfig(null, new FsyncPolicy.Never(), BinlogConfig.DEFAULT_SEGMENT_SIZE, false),
        BeanstalkServer.binlogConfig(new BinlogSection(null, FsyncSetting.never(),
            BinlogSection.DEFAULT_SEGMENT_SIZE, false)));
    assertEquals(BinlogConfig.inMemory(), BeanstalkServer.binlogConfig(BinlogSection.inMemory()));
  }
}
