package io.github.vertxbeanstalkd.persistence;

/**
 * A job's stats-job counters as they stand after the change a record describes. Records carry the
 * absolute values, not increments, so a skipped or superseded record cannot skew them.
 */
public record JobCounters(int reserves, int timeouts, int releases, int buries, int kicks) {
  public static final JobCounters ZERO = new JobCounters(0, 0, 0, 0, 0);
}
