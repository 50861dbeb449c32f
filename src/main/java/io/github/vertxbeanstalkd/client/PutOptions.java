package io.github.vertxbeanstalkd.client;

/**
 * A put's priority (0 is most urgent, up to 2^32-1), delay and time-to-run in seconds.
 * The defaults are EVENTBUS.md's: priority 2^31, no delay, 60 s to run.
 *
 * @see <a href="{@docRoot}/../spec/EVENTBUS.html">EVENTBUS.md</a>
 */
public record PutOptions(long priority, long delaySeconds, long ttrSeconds) {
  public static final PutOptions DEFAULTS = new PutOptions(1L << 31, 0, 60);

  public PutOptions withPriority(long priority) {
    return new PutOptions(priority, delaySeconds, ttrSeconds);
  }

  public PutOptions withDelaySeconds(long seconds) {
    return new PutOptions(priority, seconds, ttrSeconds);
  }

  public PutOptions withTtrSeconds(long seconds) {
    return new PutOptions(priority, delaySeconds, seconds);
  }
}
