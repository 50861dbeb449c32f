package io.github.vertxbeanstalkd.persistence;

/**
 * When the log writer calls fsync, and therefore when a change counts as durable enough to be
 * acknowledged (the {@code binlog.fsync} setting).
 *
 * @see <a href="{@docRoot}/../spec/BEHAVIOURS.html">BEHAVIOURS.md</a>
 */
public sealed interface FsyncPolicy {

  /** fsync before every acknowledgement; one fsync covers every record queued meanwhile. */
  record Always() implements FsyncPolicy {
    @Override
    public String toString() {
      return "always";
    }
  }

  /** Acknowledge once written; every write is fsynced at most {@code millis} later. */
  record Interval(long millis) implements FsyncPolicy {
    public Interval {
      if (millis <= 0) {
        throw new IllegalArgumentException("fsync interval must be positive, got " + millis);
      }
    }

    @Override
    public String toString() {
      return millis + "ms";
    }
  }

  /** Acknowledge once written; the operating system decides when data reaches the disk. */
  record Never() implements FsyncPolicy {
    @Override
    public String toString() {
      return "never";
    }
  }

  /** BEHAVIOURS.md: beanstalkd's {@code -f} default. */
  long DEFAULT_INTERVAL_MILLIS = 50;
}
