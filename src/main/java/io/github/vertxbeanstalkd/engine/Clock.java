package io.github.vertxbeanstalkd.engine;

/** The engine's only source of time: monotonic nanoseconds since an arbitrary start. */
@FunctionalInterface
public interface Clock {
  /** Nanoseconds in a second: the protocol counts in seconds, the clock in nanoseconds. */
  long SECOND_NANOS = 1_000_000_000L;

  long nanos();

  /** Wall-clock time, only for what must survive a restart (a delayed job's absolute deadline). */
  default long epochMillis() {
    return System.currentTimeMillis();
  }

  /** The JVM's monotonic clock, counted from the moment this clock was made. */
  static Clock system() {
    long start = System.nanoTime();
    return () -> System.nanoTime() - start;
  }
}
