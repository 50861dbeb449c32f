package io.github.vertxbeanstalkd.replication.shipping;

import io.vertx.core.Context;
import io.vertx.core.Future;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Test code run on a Vert.x context (where the replication classes expect to be called) and waited
 * for from the test's thread, with the future it returns, if any; bounded, so a lost event fails the
 * test instead of hanging it.
 */
final class OnContext {
  private OnContext() {}

  /** Runs {@code action} on {@code context}; returns its value once it, or the future it is, completes. */
  static <T> T call(Context context, Callable<T> action) {
    CompletableFuture<T> result = new CompletableFuture<>();
    context.runOnContext(v -> {
      try {
        T value = action.call();
        if (value instanceof Future<?> f) {
          f.onComplete(r -> {
            if (r.succeeded()) {
              result.complete(value);
            } else {
              result.completeExceptionally(r.cause());
            }
          });
        } else {
          result.complete(value);
        }
      } catch (Throwable e) {
        result.completeExceptionally(e);
      }
    });
    try {
      return result.get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Waits for {@code f} from the test's thread. */
  static <T> T await(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
