package io.github.vertxbeanstalkd.tcp;

import io.github.vertxbeanstalkd.config.BinlogSection;
import io.github.vertxbeanstalkd.config.FsyncSetting;
import io.github.vertxbeanstalkd.config.ServerConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** {@link ReplyBodyLifetimeTest} with a binlog, where replies also wait for the log before they leave. */
class ReplyBodyLifetimeWithBinlogTest extends ReplyBodyLifetimeTest {
  @TempDir
  Path dir;

  @Override
  protected ServerConfig config() {
    return ServerConfig.forTests().withBinlog(new BinlogSection(dir, FsyncSetting.everyMillis(5),
        BinlogSection.DEFAULT_SEGMENT_SIZE, false));
  }
}
