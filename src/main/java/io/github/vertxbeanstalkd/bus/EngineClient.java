package io.github.vertxbeanstalkd.bus;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * The one way into the queue engine, for every front: it opens sessions, sends their requests in
 * order (what a front queues during one event-loop turn goes as one {@link EngineRequest.Batch}),
 * and hands each session the engine's replies for it. One client per front instance, used on that
 * front's own context only.
 */
public final class EngineClient {
  /** Hears the engine's replies for one session, in order. */
  @FunctionalInterface
  public interface Listener {
    void onReply(EngineReply reply);
  }

  private final Vertx vertx;
  private final EngineAddress address;
  private final String front;
  private final HashMap<Long, Listener> listeners = new HashMap<>();
  private long nextSessionId = 1;
  private List<EngineRequest> queued = new ArrayList<>();
  private boolean isFlushScheduled;
  private MessageConsumer<EngineReplies> replies;

  private EngineClient(Vertx vertx, EngineAddress address) {
    this.vertx = vertx;
    this.address = address;
    this.front = address.newReplyAddress();
  }

  /** A client of the engine at {@code address}, ready once its reply consumer is registered. */
  public static Future<EngineClient> start(Vertx vertx, EngineAddress address) {
    EngineClient client = new EngineClient(vertx, address);
    client.replies = vertx.eventBus().localConsumer(client.front, msg -> {
      for (EngineReply reply : msg.body().replies()) {
        client.route(reply);
      }
    });
    return client.replies.completion().map(client);
  }

  /** Stops hearing replies; the sessions still open are the engine's to forget when their fronts close them. */
  public Future<Void> stop() {
    listeners.clear();
    return replies.unregister();
  }

  /** Opens a session whose replies go to {@code listener}; see {@link EngineRequest.Open}. */
  public EngineSession open(boolean isConnection, Listener listener) {
    SessionKey key = new SessionKey(front, nextSessionId++);
    listeners.put(key.id(), listener);
    send(new EngineRequest.Open(key, isConnection));
    return new EngineSession(this, key);
  }

  /** This engine as the host of a protocol front's connections, each a session counted as a connection. */
  public SessionHost connections() {
    return new SessionHost() {
      @Override
      public ConnectionSession open(Listener listener) {
        return EngineClient.this.open(true, listener);
      }

      @Override
      public void connectionRefused() {
        EngineClient.this.connectionRefused();
      }

      @Override
      public Future<Void> stop() {
        return Future.succeededFuture();
      }
    };
  }

  /** A connection over maxConnections was closed at once: the engine counts it. */
  public void connectionRefused() {
    send(new EngineRequest.ConnectionRefused());
  }

  /** A fresh snapshot of the engine's counts; fails while the engine is not running. */
  public Future<EngineSnapshot> snapshot() {
    return vertx.eventBus().<EngineSnapshot>request(address.requests(), new EngineRequest.Snapshot())
        .map(msg -> msg.body());
  }

  /** Enters or leaves drain mode; completes once the engine has applied it. */
  public Future<Void> drain(boolean isDraining) {
    return vertx.eventBus().request(address.requests(), new EngineRequest.Drain(isDraining)).mapEmpty();
  }

  /** Queues {@code request} for the engine; the turn's requests leave together, in order. */
  void send(EngineRequest request) {
    queued.add(request);
    if (!isFlushScheduled) {
      isFlushScheduled = true;
      vertx.runOnContext(v -> flush());
    }
  }

  private void flush() {
    isFlushScheduled = false;
    List<EngineRequest> batch = queued;
    queued = new ArrayList<>();
    vertx.eventBus().send(address.requests(), batch.size() == 1 ? batch.get(0) : new EngineRequest.Batch(batch));
  }

  /** The session ended: nothing more comes for it. */
  void forget(SessionKey key) {
    listeners.remove(key.id());
  }

  private void route(EngineReply reply) {
    Listener listener = reply.hasEnded() ? listeners.remove(reply.key().id()) : listeners.get(reply.key().id());
    if (listener != null) {
      listener.onReply(reply);
    }
  }
}
