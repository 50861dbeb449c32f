package io.github.vertxbeanstalkd;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The tests' one way to wait for something they can observe (a reply, a stat, a role, a flag): the
 * probe is polled, first every few milliseconds and then every 100 ms, until it holds or a bound
 * passes. The pause between polls only spaces the probes; it never stands in for the event.
 */
public final class Await {
  private static final long FIRST_POLL_MILLIS = 5;
  private static final long MAX_POLL_MILLIS = 100;

  private Await() {}

  /** Waits until {@code condition} holds; fails the test, naming {@code what}, after {@code millis}. */
  public static void until(String what, BooleanSupplier condition, long millis) {
    value(() -> condition.getAsBoolean() ? Boolean.TRUE : null, millis, () -> what);
  }

  /**
   * Waits until {@code probe} gives a value, and returns it; fails the test with {@code failure}'s
   * text after {@code millis}.
   */
  public static <T> T value(Supplier<T> probe, long millis, Supplier<String> failure) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    long pollMillis = FIRST_POLL_MILLIS;
    while (true) {
      T value = probe.get();
      if (value != null) {
        return value;
      }
      if (System.nanoTime() - deadline > 0) {
        return fail(failure.get() + " within " + millis + " ms");
      }
      pause(pollMillis);
      pollMillis = Math.min(MAX_POLL_MILLIS, pollMillis * 2);
    }
  }

  /** Whether {@code condition} holds within {@code millis}: for a test that asserts on it itself. */
  public static boolean eventually(long millis, BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    long pollMillis = FIRST_POLL_MILLIS;
    while (System.nanoTime() - deadline < 0) {
      if (condition.getAsBoolean()) {
        return true;
      }
      pause(pollMillis);
      pollMillis = Math.min(MAX_POLL_MILLIS, pollMillis * 2);
    }
    return condition.getAsBoolean();
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting", e);
    }
  }
}
