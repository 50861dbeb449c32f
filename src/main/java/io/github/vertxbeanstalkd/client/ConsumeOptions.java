package io.github.vertxbeanstalkd.client;

/**
 * How {@link BeanstalkClient#consume} works: how many jobs it handles at once, how long each
 * reserve waits on the server, and the back-off of a failed job: it is released with a delay of
 * {@code initialBackoffSeconds * 2^releases}, at most {@code maxBackoffSeconds}. While the server
 * cannot be reached, reserving is retried every {@code retryMillis}.
 */
public record ConsumeOptions(int concurrency, long reserveTimeoutSeconds, long initialBackoffSeconds,
    long maxBackoffSeconds, long retryMillis) {
  public static final ConsumeOptions DEFAULTS = new ConsumeOptions(1, 10, 1, 60, 1000);

  public ConsumeOptions {
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be at least 1, got " + concurrency);
    }
  }

  public ConsumeOptions withConcurrency(int n) {
    return new ConsumeOptions(n, reserveTimeoutSeconds, initialBackoffSeconds, maxBackoffSeconds, retryMillis);
  }

  public ConsumeOptions withReserveTimeoutSeconds(long seconds) {
    return new ConsumeOptions(concurrency, seconds, initialBackoffSeconds, maxBackoffSeconds, retryMillis);
  }

  public ConsumeOptions withBackoffSeconds(long initial, long max) {
    return new ConsumeOptions(concurrency, reserveTimeoutSeconds, initial, max, retryMillis);
  }

  public ConsumeOptions withRetryMillis(long millis) {
    return new ConsumeOptions(concurrency, reserveTimeoutSeconds, initialBackoffSeconds, maxBackoffSeconds, millis);
  }

  /** The release delay after a job's {@code releases}-th failure. */
  long backoffSeconds(long releases) {
    long delay = initialBackoffSeconds << Math.min(releases, 30);
    return Math.min(delay < 0 ? maxBackoffSeconds : delay, maxBackoffSeconds);
  }
}
