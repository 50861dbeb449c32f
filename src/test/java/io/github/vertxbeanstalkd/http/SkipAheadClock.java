package io.github.vertxbeanstalkd.http;

import io.github.vertxbeanstalkd.engine.Clock;
import java.util.concurrent.atomic.AtomicLong;

/** The system's monotonic clock, which a test can also move forward at once, so that time passes without a sleep. */
final class SkipAheadClock implements Clock {
  private final Clock system = Clock.system();
  private final AtomicLong skippedNanos = new AtomicLong();

  @Override
  public long nanos() {
    return system.nanos() + skippedNanos.get();
  }

  @Override
  public long epochMillis() {
    return System.currentTimeMillis() + skippedNanos.get() / 1_000_000L;
  }

  void skipMillis(long millis) {
    skippedNanos.addAndGet(millis * 1_000_000L);
  }
}
