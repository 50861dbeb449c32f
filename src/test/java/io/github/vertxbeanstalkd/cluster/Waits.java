package io.github.vertxbeanstalkd.cluster;

import io.github.vertxbeanstalkd.Await;
import io.github.vertxbeanstalkd.client.BeanstalkClient;
import io.vertx.core.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** The cluster tests' waits for observable events: polled, bounded, never a fixed sleep as the condition. */
public final class Waits {
  private Waits() {}

  /** Waits until {@code condition} gives a value ({@link Await#value}); fails with {@code failure} after {@code millis}. */
  public static <T> T until(Supplier<T> condition, long millis, Supplier<String> failure) throws InterruptedException {
    return Await.value(condition, millis, failure);
  }

  /** The bus address reaches the server once its subscription has spread through the cluster. */
  static void reachable(BeanstalkClient client, long millis) throws InterruptedException {
    Await.until("the bus address answered stats", () -> {
      try {
        result(client.stats(), 5);
        return true;
      } catch (RuntimeException notYet) {
        return false;
      }
    }, millis);
  }

  static <T> T result(Future<T> f, long seconds) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(seconds, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
