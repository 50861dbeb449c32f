package io.github.vertxbeanstalkd.api;

import io.github.vertxbeanstalkd.Await;
import io.github.vertxbeanstalkd.client.*;
import io.github.vertxbeanstalkd.contract.Failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Raw requests on the public address from a test's thread, as an app that knows only the contract would send them. */
final class Bus {
  static final long WAIT_SECONDS = 10;
  private final Vertx vertx;
  private final String address;

  Bus(Vertx vertx, String address) {
    this.vertx = vertx;
    this.address = address;
  }

  /** Sends {@code action} with {@code body} and returns the future of its reply. */
  Future<JsonObject> send(String action, JsonObject body) {
    DeliveryOptions options = new DeliveryOptions().addHeader("action", action).setSendTimeout(WAIT_SECONDS * 1000);
    return vertx.eventBus().<JsonObject>request(address, body, options).map(m -> m.body());
  }

  /** The reply to {@code action}; fails the test if the request fails. */
  JsonObject ok(String action, JsonObject body) {
    try {
      return await(send(action, body));
    } catch (ReplyException e) {
      return fail(action + " failed: " + e.getMessage());
    }
  }

  /** Expects {@code action} to fail with {@code word}, and returns the failure. */
  ReplyException fails(String action, JsonObject body, Failure word) {
    try {
      JsonObject reply = await(send(action, body));
      return fail(action + " succeeded with " + reply + ", expected " + word);
    } catch (ReplyException e) {
      assertEquals(ReplyFailure.RECIPIENT_FAILURE, e.failureType(), e.getMessage());
      assertTrue(e.getMessage().equals(word.name()) || e.getMessage().startsWith(word.name() + " "),
          () -> "expected " + word + ", got " + e.getMessage());
      assertEquals(word.code(), e.failureCode());
      return e;
    }
  }

  /** The failure of {@code f}; fails the test if it succeeds. */
  static Throwable awaitFailure(Future<?> f) {
    try {
      Object value = await(f);
      return fail("expected a failure, got " + value);
    } catch (RuntimeException e) {
      return e;
    }
  }

  /** Whether {@code probe} holds within {@code millis} ({@link Await#eventually}). */
  static boolean eventually(long millis, java.util.function.BooleanSupplier probe) throws InterruptedException {
    return Await.eventually(millis, probe);
  }

  static <T> T await(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException | CompletionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new AssertionError(e.getCause());
    } catch (InterruptedException | TimeoutException e) {
      throw new AssertionError("no reply within " + WAIT_SECONDS + " s", e);
    }
  }
}
