package io.github.vertxbeanstalkd.engine;

/** A clock that moves only when a test says so. */
final class FakeClock implements Clock {
  static final long SECOND = 1_000_000_000L;
  private long nanos = 1_000 * SECOND;

  @Override
  public long nanos() {
    return nanos;
  }

  void advanceNanos(long delta) {
    nanos += delta;
  }

  void advanceMillis(long millis) {
    advanceNanos(millis * 1_000_000L);
  }
}
