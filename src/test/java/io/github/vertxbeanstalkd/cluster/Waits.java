package io.github.vertxbeanstalkd.cluster;

import static org.junit.jupiter.api.Assertions.fail;

import io.github.vertxbeanstalkd.client.BeanstalkClient;
import io.vertx.core.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** The cluster tests' waits for observable events: polled, bounded, never a fixed sleep as the condition. */
public final class Waits {
  private Waits() {}

  /** Polls {@code condition} every 100 ms until it gives a value; fails with {@code failure} after {@code millis}. */
  public static <T> T until(Supplier<T> condition, long millis, Supplier<String> failure) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    while (true) {
      T value = condition.get();
      if (value != null) {
        return value;
      }
      if (System.nanoTime() > deadline) {
        fail(failure.get() + " within " + millis + " ms");
      }
      Thread.sleep(100);
    }
  }

  /** The bus address reaches the server once its subscription has spread through the cluster. */
  static void reachable(BeanstalkClient client, long millis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    while (true) {
      try {
        result(client.stats(), 5);
        return;
      } catch (RuntimeException notYet) {
        if (System.nanoTime() > deadline) {
          throw notYet;
        }
        Thread.sleep(200);
      }
    }
  }

  static <T> T result(Future<T> f, long seconds) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(seconds, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
