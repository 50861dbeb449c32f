package io.github.vertxbeanstalkd.persistence;

import java.nio.file.Path;

/**
 * The binlog settings: where the log lives (null keeps jobs in memory only), the fsync policy, the
 * segment size, and whether a damaged log may be started by skipping what cannot be read. The
 * server's configuration reads and validates them; this record only refuses values the writer
 * cannot work with.
 *
 * @see <a href="{@docRoot}/../spec/BEHAVIOURS.html">BEHAVIOURS.md</a>
 */
public record BinlogConfig(Path dir, FsyncPolicy fsync, long segmentSizeBytes, boolean isRecoverRequested) {
  /** BEHAVIOURS.md: beanstalkd's {@code -s} default, 10 MiB. */
  public static final long DEFAULT_SEGMENT_SIZE = 10L * 1024 * 1024;
  /** BEHAVIOURS.md: beanstalkd's {@code -f} default, 50 ms. */
  public static final FsyncPolicy DEFAULT_FSYNC =
      new FsyncPolicy.Interval(FsyncPolicy.DEFAULT_INTERVAL_MILLIS);
  /** Below this a segment holds too few records to be worth a file. */
  public static final long MIN_SEGMENT_SIZE = 4096;
  public static final long MAX_SEGMENT_SIZE = 1L << 30;

  public BinlogConfig {
    if (fsync == null) {
      throw new IllegalArgumentException("binlog: an fsync policy must be set");
    }
    if (segmentSizeBytes < MIN_SEGMENT_SIZE || segmentSizeBytes > MAX_SEGMENT_SIZE) {
      throw new IllegalArgumentException("binlog: the segment size must be between "
          + MIN_SEGMENT_SIZE + " and " + MAX_SEGMENT_SIZE + ", got " + segmentSizeBytes);
    }
  }

  /** No binlog: jobs live in memory only. */
  public static BinlogConfig inMemory() {
    return new BinlogConfig(null, DEFAULT_FSYNC, DEFAULT_SEGMENT_SIZE, false);
  }

  public boolean isEnabled() {
    return dir != null;
  }
}
