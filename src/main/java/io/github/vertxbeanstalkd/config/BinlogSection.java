package io.github.vertxbeanstalkd.config;

import io.vertx.core.json.JsonObject;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * The {@code binlog} section: where the log lives (null keeps jobs in memory only), the fsync
 * setting, the segment size, and whether a damaged log may be started by skipping what cannot be
 * read. The composition root turns it into the persistence layer's own settings.
 *
 * <p>Read from flat keys ({@code "binlog.dir": "/var/lib/beanstalkd"}) or from a nested object
 * ({@code "binlog": {"dir": ...}}); a flat key wins over the nested one, and an environment variable
 * of {@link #ENVIRONMENT} (merged into the same JSON by vertx-config) over both.
 *
 * @see <a href="{@docRoot}/../spec/BEHAVIOURS.html">BEHAVIOURS.md</a>
 */
public record BinlogSection(Path dir, FsyncSetting fsync, long segmentSizeBytes, boolean isRecoverRequested) {
  /** BEHAVIOURS.md: beanstalkd's {@code -s} default, 10 MiB. */
  public static final long DEFAULT_SEGMENT_SIZE = 10L * 1024 * 1024;
  /** BEHAVIOURS.md: beanstalkd's {@code -f} default, 50 ms. */
  public static final FsyncSetting DEFAULT_FSYNC = FsyncSetting.everyMillis(FsyncSetting.DEFAULT_INTERVAL_MILLIS);
  /** Below this a segment holds too few records to be worth a file. */
  public static final long MIN_SEGMENT_SIZE = 4096;
  public static final long MAX_SEGMENT_SIZE = 1L << 30;
  static final String SECTION = "binlog";
  static final Set<String> KEYS = Set.of("dir", "fsync", "segmentSize", "recover");
  /** Environment variable to config key; the environment wins over the file, as in ServerConfig. */
  static final Map<String, String> ENVIRONMENT = Map.of(
      "BEANSTALKD_BINLOG_DIR", "binlog.dir",
      "BEANSTALKD_BINLOG_FSYNC", "binlog.fsync",
      "BEANSTALKD_BINLOG_SEGMENT_SIZE", "binlog.segmentSize",
      "BEANSTALKD_BINLOG_RECOVER", "binlog.recover");

  public BinlogSection {
    if (fsync == null) {
      throw new IllegalArgumentException("config: 'binlog.fsync' must be set");
    }
    if (segmentSizeBytes < MIN_SEGMENT_SIZE || segmentSizeBytes > MAX_SEGMENT_SIZE) {
      throw new IllegalArgumentException("config: 'binlog.segmentSize' must be between "
          + MIN_SEGMENT_SIZE + " and " + MAX_SEGMENT_SIZE + ", got " + segmentSizeBytes);
    }
  }

  /** No binlog: jobs live in memory only. */
  public static BinlogSection inMemory() {
    return new BinlogSection(null, DEFAULT_FSYNC, DEFAULT_SEGMENT_SIZE, false);
  }

  public boolean isEnabled() {
    return dir != null;
  }

  /**
   * Validates the binlog keys of the merged server configuration; other keys are ignored.
   *
   * @throws IllegalArgumentException with a one-line message naming the offending key
   */
  public static BinlogSection fromJson(JsonObject json) {
    ConfigSection section = new ConfigSection(SECTION, KEYS, ENVIRONMENT, json);
    Object dir = section.value("dir");
    Object fsync = section.value("fsync");
    Object size = section.value("segmentSize");
    // The range is checked last, by the constructor, so that each key's own error comes first.
    return new BinlogSection(
        dir == null ? null : path(dir),
        fsync == null ? DEFAULT_FSYNC : FsyncSetting.parse(fsync),
        size == null ? DEFAULT_SEGMENT_SIZE
            : ConfigSection.wholeNumber("binlog.segmentSize", size, Long.MIN_VALUE, Long.MAX_VALUE),
        section.flag("recover", false));
  }

  private static Path path(Object v) {
    if (!(v instanceof String s) || s.isBlank()) {
      throw new IllegalArgumentException("config: 'binlog.dir' must be a non-empty path, got " + ConfigSection.shown(v));
    }
    try {
      return Path.of(s.strip());
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException("config: 'binlog.dir' is not a valid path: " + ConfigSection.shown(e.getMessage()));
    }
  }
}
