package io.github.vertxbeanstalkd.replication.forwarding;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;

/** The host's time, moved on by the test: a timer runs when the time reaches its deadline. */
final class FakeHostClock implements HostClock {
  private static final long SECOND_NANOS = 1_000_000_000L;
  private record Timer(long deadlineNanos, Runnable action) {}

  private final Map<Long, Timer> timers = new HashMap<>();
  private long nowNanos = 123 * SECOND_NANOS;
  private long nextId = 1;

  @Override
  public long nanos() {
    return nowNanos;
  }

  @Override
  public long setTimer(long delayNanos, Runnable action) {
    assertTrue(delayNanos > 0, "a timer armed for no time: " + delayNanos);
    timers.put(nextId, new Timer(nowNanos + delayNanos, action));
    return nextId++;
  }

  @Override
  public void cancelTimer(long timerId) {
    timers.remove(timerId);
  }

  int armed() {
    return timers.size();
  }

  /** Moves the time on by {@code nanos}, running each timer due on the way at its own deadline. */
  void advance(long nanos) {
    long untilNanos = nowNanos + nanos;
    while (true) {
      Map.Entry<Long, Timer> next = timers.entrySet().stream()
          .filter(t -> t.getValue().deadlineNanos() <= untilNanos)
          .min(Comparator.comparingLong(t -> t.getValue().deadlineNanos())).orElse(null);
      if (next == null) {
        break;
      }
      timers.remove(next.getKey());
      nowNanos = next.getValue().deadlineNanos();
      next.getValue().action().run();
    }
    nowNanos = untilNanos;
  }
}
