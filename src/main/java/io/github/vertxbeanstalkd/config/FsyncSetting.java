package io.github.vertxbeanstalkd.config;

import java.util.Objects;

/**
 * The {@code binlog.fsync} setting: fsync before every acknowledgement ({@code always}), at most
 * {@code intervalMillis} after each write, or whenever the operating system decides ({@code never}).
 *
 * @param intervalMillis positive for {@link Mode#INTERVAL}, 0 otherwise
 * @see <a href="{@docRoot}/../spec/BEHAVIOURS.html">BEHAVIOURS.md</a>
 */
public record FsyncSetting(Mode mode, long intervalMillis) {
  /** When the log writer calls fsync. */
  public enum Mode { ALWAYS, INTERVAL, NEVER }

  /** BEHAVIOURS.md: beanstalkd's {@code -f} default, 50 ms. */
  public static final long DEFAULT_INTERVAL_MILLIS = 50;
  static final long MAX_INTERVAL_MILLIS = 3_600_000;

  public FsyncSetting {
    Objects.requireNonNull(mode, "mode");
    if (mode == Mode.INTERVAL && intervalMillis <= 0) {
      throw new IllegalArgumentException("fsync interval must be positive, got " + intervalMillis);
    }
    if (mode != Mode.INTERVAL && intervalMillis != 0) {
      throw new IllegalArgumentException("fsync " + mode + " takes no interval, got " + intervalMillis);
    }
  }

  public static FsyncSetting always() {
    return new FsyncSetting(Mode.ALWAYS, 0);
  }

  public static FsyncSetting never() {
    return new FsyncSetting(Mode.NEVER, 0);
  }

  /** fsync at most {@code millis} (positive) after each write. */
  public static FsyncSetting everyMillis(long millis) {
    return new FsyncSetting(Mode.INTERVAL, millis);
  }

  /**
   * Reads {@code "always"}, {@code "never"} or an interval in milliseconds (a number or a string of
   * digits); an interval of 0 means always, as beanstalkd's {@code -f0}.
   *
   * @throws IllegalArgumentException with a one-line message naming {@code binlog.fsync}
   */
  static FsyncSetting parse(Object value) {
    if (value instanceof String s) {
      String word = s.strip();
      if (word.equals("always")) {
        return always();
      }
      if (word.equals("never")) {
        return never();
      }
      if (word.matches("\\d{1,10}")) {
        return ofMillis(Long.parseLong(word));
      }
    } else if (value instanceof Number n && n.doubleValue() == n.longValue()) {
      return ofMillis(n.longValue());
    }
    throw new IllegalArgumentException(
        "config: 'binlog.fsync' must be \"always\", \"never\" or milliseconds, got " + ConfigSection.shown(value));
  }

  private static FsyncSetting ofMillis(long millis) {
    if (millis < 0 || millis > MAX_INTERVAL_MILLIS) {
      throw new IllegalArgumentException("config: 'binlog.fsync' milliseconds must be between 0 and "
          + MAX_INTERVAL_MILLIS + ", got " + millis);
    }
    return millis == 0 ? always() : everyMillis(millis);
  }

  /** As written in the configuration (the start-up log shows it): always, 50ms, never. */
  @Override
  public String toString() {
    return switch (mode) {
      case ALWAYS -> "always";
      case INTERVAL -> intervalMillis + "ms";
      case NEVER -> "never";
    };
  }
}
