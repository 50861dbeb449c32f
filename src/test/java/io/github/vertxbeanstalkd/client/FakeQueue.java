package io.github.vertxbeanstalkd.client;

import io.github.vertxbeanstalkd.contract.Failure;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A queue that answers EVENTBUS.md's put, reserve, delete, release, peek, stats-job and quit on
 * one address, and can go through a failover: its consumer goes away (requests fail
 * NO_HANDLERS), parked reserves are never answered (their node died), reserved jobs become ready,
 * and the consumer comes back. It can also swallow the next requests of an action, as a node that
 * dies after receiving them.
 */
final class FakeQueue extends VerticleBase {
  private final String address;
  /** Every request received, by action, and the requests in order, for the tests to read. */
  final Map<String, AtomicInteger> received = new ConcurrentHashMap<>();
  final List<JsonObject> receivedRequests = new CopyOnWriteArrayList<>();
  private final Map<String, AtomicInteger> toSwallow = new ConcurrentHashMap<>();
  private final TreeMap<Long, String> ready = new TreeMap<>();
  private final Map<Long, String> reserved = new LinkedHashMap<>();
  private final Deque<Message<JsonObject>> parked = new ArrayDeque<>();
  private final Set<Long> jobIds = ConcurrentHashMap.newKeySet();
  private MessageConsumer<JsonObject> consumer;
  private long nextId = 1;

  FakeQueue(String address) {
    this.address = address;
  }

  @Override
  public Future<?> start() {
    return up();
  }

  /** Registers the address, as a new primary does. */
  Future<Void> up() {
    return onContext(() -> {
      consumer = vertx.eventBus().consumer(address, this::handle);
      return consumer.completion();
    });
  }

  /** The primary dies: its address goes, parked reserves get no reply, reserved jobs are ready again. */
  Future<Void> down() {
    return onContext(() -> {
      parked.clear();
      reserved.forEach(ready::put);
      reserved.clear();
      return consumer.unregister();
    });
  }

  /** The next {@code n} requests of {@code action} get no reply. */
  void swallow(String action, int n) {
    toSwallow.computeIfAbsent(action, a -> new AtomicInteger()).addAndGet(n);
  }

  int received(String action) {
    AtomicInteger n = received.get(action);
    return n == null ? 0 : n.get();
  }

  /** Jobs in the queue, in any state. */
  int jobCount() {
    return jobIds.size();
  }

  private Future<Void> onContext(java.util.function.Supplier<Future<Void>> work) {
    Promise<Void> done = Promise.promise();
    context.runOnContext(v -> work.get().onComplete(done));
    return done.future();
  }

  private void handle(Message<JsonObject> message) {
    String action = message.headers().get("action");
    JsonObject body = message.body();
    received.computeIfAbsent(action, a -> new AtomicInteger()).incrementAndGet();
    receivedRequests.add(body.copy().put("action", action));
    AtomicInteger swallowed = toSwallow.get(action);
    if (swallowed != null && swallowed.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      return;
    }
    switch (action) {
      case "put" -> {
        long id = nextId++;
        ready.put(id, body.getString("body"));
        jobIds.add(id);
        message.reply(new JsonObject().put("id", id));
        serveParked();
      }
      case "reserve" -> {
        parked.add(message);
        serveParked();
        long timeoutSeconds = body.getLong("timeout");
        vertx.setTimer(Math.max(1, timeoutSeconds * 1000), t -> {
          if (parked.remove(message)) {
            message.fail(Failure.TIMED_OUT.code(), "TIMED_OUT");
          }
        });
      }
      case "delete" -> {
        long id = body.getLong("id");
        if (reserved.remove(id) != null || ready.remove(id) != null) {
          jobIds.remove(id);
          message.reply(new JsonObject());
        } else {
          message.fail(Failure.NOT_FOUND.code(), "NOT_FOUND");
        }
      }
      case "release" -> {
        String text = reserved.remove(body.getLong("id"));
        if (text == null) {
          message.fail(Failure.NOT_FOUND.code(), "NOT_FOUND");
        } else {
          ready.put(body.getLong("id"), text);
          message.reply(new JsonObject());
          serveParked();
        }
      }
      case "peek" -> {
        long id = body.getLong("id");
        String text = ready.containsKey(id) ? ready.get(id) : reserved.get(id);
        if (text == null) {
          message.fail(Failure.NOT_FOUND.code(), "NOT_FOUND");
        } else {
          message.reply(new JsonObject().put("id", id).put("tube", "t").put("body", text));
        }
      }
      case "stats-job" -> message.reply(new JsonObject().put("id", body.getLong("id")).put("pri", 0)
          .put("releases", 0).put("state", ready.containsKey(body.getLong("id")) ? "ready" : "reserved"));
      case "quit" -> message.reply(new JsonObject());
      default -> message.fail(Failure.UNKNOWN_COMMAND.code(), "UNKNOWN_COMMAND");
    }
  }

  private void serveParked() {
    while (!ready.isEmpty() && !parked.isEmpty()) {
      Message<JsonObject> waiter = parked.poll();
      Map.Entry<Long, String> job = ready.pollFirstEntry();
      reserved.put(job.getKey(), job.getValue());
      waiter.reply(new JsonObject().put("id", job.getKey()).put("tube", "t").put("body", job.getValue()));
    }
  }
}
