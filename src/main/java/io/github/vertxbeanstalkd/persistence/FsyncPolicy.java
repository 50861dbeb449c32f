package io.github.vertxbeanstalkd.persistence;

/**
 * When the log writer calls fsync, and therefore when a change counts as durable enough to be
 * acknowledged (the {@code binlog.fsync} setting).
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

  /**
   * Reads {@code "always"}, {@code "never"} or an interval in milliseconds (a number or a string of
   * digits); an interval of 0 means always, as beanstalkd's {@code -f0}.
   *
   * @throws IllegalArgumentException with a one-line message naming {@code binlog.fsync}
   */
  static FsyncPolicy parse(Object value) {
    if (value instanceof String s) {
      String word = s.strip();
      if (word.equals("always")) {
        return new Always();
      }
      if (word.equals("never")) {
        return new Never();
      }
      if (word.matches("\\d{1,10}")) {
        return ofMillis(Long.parseLong(word));
      }
    } else if (value instanceof Number n && n.doubleValue() == n.longValue()) {
      return ofMillis(n.longValue());
    }
    throw new IllegalArgumentException(
        "config: 'binlog.fsync' must be \"always\", \"never\" or milliseconds, got " + value);
  }

  private static FsyncPolicy ofMillis(long millis) {
    if (millis < 0 || millis > 3_600_000) {
      throw new IllegalArgumentException(
          "config: 'binlog.fsync' milliseconds must be between 0 and 3600000, got " + millis);
    }
    return millis == 0 ? new Always() : new Interval(millis);
  }
}
