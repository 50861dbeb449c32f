package io.github.vertxbeanstalkd.bus;

import io.github.vertxbeanstalkd.protocol.Reply;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.internal.ContextInternal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one way into the queue engine, for every front: it opens sessions, sends their requests in
 * order (what a front queues during one event-loop turn goes as one {@link EngineRequest.Batch}),
 * and hands each session the engine's replies for it. One client per front instance, used on that
 * front's own context only.
 */
public final class EngineClient {
  private static final Logger log = LoggerFactory.getLogger(EngineClient.class);
  /** Hears the engine's replies for one session, in order. */
  @FunctionalInterface
  public interface Listener {
    void onReply(EngineReply reply);
  }

  /** Reply-less sends, alike every time: one options object, not one per message. */
  private static final DeliveryOptions SEND = new DeliveryOptions();
  /** How long a stopping client waits for the engine to answer what was sent before. */
  private static final DeliveryOptions STOP_TIMEOUT = new DeliveryOptions().setSendTimeout(5_000);

  private final Vertx vertx;
  private final EngineAddress address;
  private final String front;
  /** By key, not by its number: a boxed number per reply would be garbage. */
  private final HashMap<SessionKey, Listener> listeners = new HashMap<>();
  private long nextSessionId = 1;
  private final ArrayList<EngineRequest> queued = new ArrayList<>();
  private boolean isFlushScheduled;
  /** The front's context, where the turn's requests leave from. */
  private final ContextInternal context;
  private final Handler<Void> flushTask = v -> flush();
  /** What {@code context.runOnContext(flushTask)} does, without a new task object per turn. */
  private final Runnable flushOnContext;
  private MessageConsumer<EngineReplies> replies;
  /** Bodies and documents received and not yet reported to the engine: see {@link EngineReplies#isReceiptWanted}. */
  private long unreportedBytes;
  /** Once stopping, the engine may be gone: what arrives is not acknowledged. */
  private boolean isStopping;

  private EngineClient(Vertx vertx, EngineAddress address) {
    this.vertx = vertx;
    this.address = address;
    this.front = address.newReplyAddress();
    this.context = (ContextInternal) vertx.getOrCreateContext();
    this.flushOnContext = () -> context.dispatch(flushTask);
  }

  /** A client of the engine at {@code address}, ready once its reply consumer is registered. */
  public static Future<EngineClient> start(Vertx vertx, EngineAddress address) {
    EngineClient client = new EngineClient(vertx, address);
    client.replies = vertx.eventBus().localConsumer(client.front, msg -> {
      List<EngineReply> replies = msg.body().replies();
      // Checked here, on the thread that writes them out, just before: not in the engine's turn.
      boolean isTooLate = msg.body().isTooLate();
      if (isTooLate) {
        log.warn("{} session(s)' replies reached this front after the lease on the group's lock they were made "
            + "under ran out (the process stood still?): they answer INTERNAL_ERROR", replies.size());
      }
      for (int i = 0; i < replies.size(); i++) {
        EngineReply reply = replies.get(i);
        client.unreportedBytes += copiedBytes(reply);
        client.route(isTooLate ? EngineReplies.failed(reply) : reply);
      }
      if (msg.body().isReceiptWanted() && client.unreportedBytes > 0 && !client.isStopping) {
        // The engine copies no more bodies or documents for this front's sessions while too many are on their way.
        client.send(new EngineRequest.Received(client.front, client.unreportedBytes));
        client.unreportedBytes = 0;
      }
    });
    return client.replies.completion().map(client);
  }

  /**
   * Stops hearing replies, once the engine has answered what was sent before: a session that
   * closed just before (a client that hung up as the front stops) gets its end notice while this
   * client still listens, rather than at an address nobody listens on (which Vert.x logs as a
   * discarded message). The sessions still open are the engine's to forget when their fronts
   * close them.
   */
  public Future<Void> stop() {
    isStopping = true;
    if (isFlushScheduled) {
      flush();
    }
    // The engine answers requests in order: its answer to this one comes after every reply to the
    // requests sent before it. An engine that is gone fails it at once.
    return vertx.eventBus().request(address.requests(), new EngineRequest.Snapshot(), STOP_TIMEOUT)
        .<Void>mapEmpty()
        .otherwiseEmpty()
        .compose(v -> {
          listeners.clear();
          return replies.unregister();
        });
  }

  /** Opens a session whose replies go to {@code listener}; see {@link EngineRequest.Open}. */
  public EngineSession open(boolean isConnection, Listener listener) {
    SessionKey key = new SessionKey(front, nextSessionId++);
    listeners.put(key, listener);
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

  /**
   * Sets {@code tube}'s (or {@code "*"}'s) settings, or only reads the table when {@code settings}
   * is null; see {@link EngineRequest.TubeSettingsChange}.
   */
  public Future<TubeSettingsAnswer> tubeSettings(String tube, io.github.vertxbeanstalkd.protocol.TubeSettings settings) {
    return vertx.eventBus().<TubeSettingsAnswer>request(address.requests(),
        new EngineRequest.TubeSettingsChange(tube, settings)).map(msg -> msg.body());
  }

  /** The tube job {@code id} was dead-lettered from, or an empty string; see {@link EngineRequest.DeadLetteredFrom}. */
  public Future<String> deadLetteredFrom(long id) {
    return vertx.eventBus().<String>request(address.requests(), new EngineRequest.DeadLetteredFrom(id))
        .map(msg -> msg.body());
  }

  /** A page of a tube's jobs; see {@link EngineRequest.ListJobs}. */
  public Future<JobPage> listJobs(JobQuery query) {
    return vertx.eventBus().<JobPage>request(address.requests(), new EngineRequest.ListJobs(query))
        .map(msg -> msg.body());
  }

  /** Queues {@code request} for the engine; the turn's requests leave together, in order. */
  void send(EngineRequest request) {
    queued.add(request);
    if (!isFlushScheduled) {
      isFlushScheduled = true;
      context.executor().execute(flushOnContext);
    }
  }

  private void flush() {
    isFlushScheduled = false;
    if (queued.isEmpty()) {
      // Flushed already, by stop().
      return;
    }
    // A lone request goes as it is; several go in an immutable list of their exact size. Either
    // way the list that gathers them stays for the next turn.
    EngineRequest message = queued.size() == 1 ? queued.get(0) : new EngineRequest.Batch(copyOf(queued));
    queued.clear();
    vertx.eventBus().send(address.requests(), message, SEND);
  }

  /** Replies for {@code key} are dropped from now on; its end notice runs {@code ended}. */
  void awaitEnd(SessionKey key, Runnable ended) {
    listeners.put(key, reply -> {
      if (reply.hasEnded()) {
        ended.run();
      }
    });
  }

  /** The session ended: nothing more comes for it. */
  void forget(SessionKey key) {
    listeners.remove(key);
  }

  private static long copiedBytes(EngineReply reply) {
    long bytes = 0;
    for (int i = 0, n = reply.replyCount(); i < n; i++) {
      bytes += reply.reply(i).transitBytes();
    }
    return bytes;
  }

  private void route(EngineReply reply) {
    Listener listener = reply.hasEnded() ? listeners.remove(reply.key()) : listeners.get(reply.key());
    if (listener != null) {
      listener.onReply(reply);
    }
  }

  /** An immutable copy; for one or two elements, without List.copyOf's intermediate array. */
  private static <T> List<T> copyOf(ArrayList<T> list) {
    return switch (list.size()) {
      case 0 -> List.of();
      case 1 -> List.of(list.get(0));
      case 2 -> List.of(list.get(0), list.get(1));
      default -> List.copyOf(list);
    };
  }
}
