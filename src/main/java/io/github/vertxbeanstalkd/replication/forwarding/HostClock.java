package io.github.vertxbeanstalkd.replication.forwarding;

/** The time of a host of routed connections: one monotonic clock, and one-shot timers on the host's context. */
interface HostClock {
  /** Nanoseconds of a monotonic clock, from an arbitrary start. */
  long nanos();

  /** Runs {@code action} once on the host's context, no sooner than {@code delayNanos} from now; the id cancels it. */
  long setTimer(long delayNanos, Runnable action);

  void cancelTimer(long timerId);
}
