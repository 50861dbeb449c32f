package io.github.vertxbeanstalkd.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.contract.Failure;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;

/**
 * Coverage-guided fuzzing of the event-bus front (EVENTBUS.md): requests with fuzzed action headers and
 * bodies (JSON objects of the contract's fields with values of every type, or not an object at all) go
 * to a real server's public address in this JVM, through the production {@link BusFrontVerticle},
 * {@link BusRequests} and the engine. Properties: every request is answered, in time, with a JSON
 * object or a failure whose word and code are EVENTBUS.md's; never INTERNAL_ERROR, which means an
 * exception inside.
 */
class BusRequestFuzzTest {
  private static final String ADDRESS = "bus-fuzz";
  private static final List<String> ACTIONS = List.of("put", "reserve", "reserve-job", "delete", "release",
      "bury", "touch", "kick", "kick-job", "peek", "peek-ready", "peek-delayed", "peek-buried", "stats-job",
      "stats-tube", "stats", "list-tubes", "pause-tube", "quit", "drain", "undrain", "use", "watch", "");
  private static final List<String> FIELDS = List.of("session", "node", "tube", "tubes", "body", "bodyBase64",
      "pri", "delay", "ttr", "timeout", "id", "bound");
  private static Vertx vertx;

  @AfterAll
  static void closeVertx() throws Exception {
    if (vertx != null) {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  @FuzzTest(maxDuration = "5s")
  void requestsOnThePublicAddress(FuzzedDataProvider data) throws Exception {
    if (vertx == null) {
      vertx = Vertx.vertx();
      BeanstalkServer.deploy(vertx, new JsonObject().put("tcp.enabled", false).put("http.enabled", false)
          .put("maxJobSize", 64).put("eventBus.address", ADDRESS)).await(30, TimeUnit.SECONDS);
    }
    for (int n = data.consumeInt(1, 4); n > 0; n--) {
      String action = data.consumeBoolean() ? data.pickValue(ACTIONS) : data.consumeBoolean() ? null
          : data.consumeString(12);
      Object body = body(data, action);
      DeliveryOptions options = new DeliveryOptions().setSendTimeout(10_000);
      if (action != null) {
        options.addHeader("action", action);
      }
      expectJsonOrContractFailure(action, body, () -> vertx.eventBus().request(ADDRESS, body, options)
          .await(15, TimeUnit.SECONDS));
    }
  }

  private static Object body(FuzzedDataProvider data, String action) {
    switch (data.consumeInt(0, 7)) {
      case 0: return null;
      case 1: return data.consumeString(20);
      case 2: return new JsonArray().add(data.consumeInt());
      case 3: return Buffer.buffer(data.consumeBytes(8));
      default:
        JsonObject json = new JsonObject();
        for (int n = data.consumeInt(0, 6); n > 0; n--) {
          json.put(data.consumeBoolean() ? data.pickValue(FIELDS) : data.consumeString(8), value(data));
        }
        if ("reserve".equals(action) && json.getValue("timeout") instanceof Number t && t.doubleValue() > 0) {
          json.put("timeout", 0); // a reserve really waits: keep each input quick
        }
        return json;
    }
  }

  private static Object value(FuzzedDataProvider data) {
    switch (data.consumeInt(0, 10)) {
      case 0: return null;
      case 1: return data.consumeBoolean();
      case 2: return data.consumeInt(-2, 3);
      case 3: return data.consumeLong();
      case 4: return data.consumeDouble();
      case 5: return data.consumeString(30);
      case 6: return data.pickValue(List.of("default", "t", "-bad", "a b", "x".repeat(201), "aGVsbG8=", "==",
          "4294967295", "s1", "s2"));
      case 7: return new JsonArray().add(data.pickValue(List.of("default", "t", "", "-x"))).add(data.consumeInt());
      case 8: return data.consumeBytes(10);
      case 9: return new JsonObject().put("id", data.consumeLong());
      default: return data.consumeBoolean() ? 4294967295L : 4294967296.0;
    }
  }

  private interface Request {
    Message<Object> run() throws Exception;
  }

  private static void expectJsonOrContractFailure(String action, Object body, Request request) throws Exception {
    String what = "action " + action + " with " + body;
    try {
      Message<Object> reply = request.run();
      assertTrue(reply.body() instanceof JsonObject, () -> what + " answered " + reply.body());
    } catch (ReplyException e) {
      assertEquals(ReplyFailure.RECIPIENT_FAILURE, e.failureType(), () -> what + " got " + e);
      Failure f = Failure.of(e.getMessage());
      assertNotNull(f, () -> what + " failed with a word not in EVENTBUS.md: " + e.getMessage());
      assertEquals(f.code(), e.failureCode(), () -> what + ": " + e.getMessage());
      assertNotEquals(Failure.INTERNAL_ERROR, f, () -> what + ": " + e.getMessage());
    }
  }
}
