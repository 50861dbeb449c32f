package io.github.vertxbeanstalkd.replication;

import io.github.vertxbeanstalkd.persistence.BinlogRecord;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A standby's side of log shipping: it subscribes to whoever is primary, takes the copy (its own
 * jobs dropped first, so a node that was primary never keeps a diverged tail), then applies every
 * batch of changes, in order, to its engine and its own binlog, and answers with what it applied.
 * It refuses a batch of a term older than the newest it has seen. Runs on the replication node's
 * context.
 */
final class Follower {
  private static final Logger log = LoggerFactory.getLogger(Follower.class);
  /** Without a batch or heartbeat for this long, the standby subscribes again. */
  private static final long SILENCE_NANOS = 3_000_000_000L;

  /** Hears how the standby stands. */
  interface Listener {
    void syncing();

    void following(long term, long lagBytes);
  }

  private final Vertx vertx;
  private final Addresses addresses;
  private final EngineShipping engine;
  private final Listener listener;
  /** Publishes (term, applied) where other standbys read it; completes once it is durable there. */
  private final java.util.function.BiFunction<Long, Long, Future<Void>> positions;
  private MessageConsumer<Buffer> batches;
  private boolean isActive;
  private long newestTerm;
  private long followedTerm = -1;
  private long applied;
  private long appliedBytes;
  private volatile long lastHeardNanos;
  /** The term whose copy this node completed and follows; -1 while it holds no complete copy. */
  private volatile long copiedTerm = -1;
  private volatile long appliedVolatile;
  private boolean isSubscribing;
  private Future<?> work = Future.succeededFuture();

  Follower(Vertx vertx, Addresses addresses, EngineShipping engine, Listener listener,
      java.util.function.BiFunction<Long, Long, Future<Void>> positions) {
    this.vertx = vertx;
    this.addresses = addresses;
    this.engine = engine;
    this.listener = listener;
    this.positions = positions;
  }

  long newestTerm() {
    return newestTerm;
  }

  /**
   * The term of the primary whose stream this node holds a complete copy of, and follows or
   * followed last; -1 when it holds none (never copied, or a new copy is under way).
   */
  long copiedTerm() {
    return copiedTerm;
  }

  /** When the primary was last heard from (a batch or a heartbeat), on System.nanoTime. */
  long lastHeardNanos() {
    return lastHeardNanos;
  }

  /** How far this node applied the stream of {@link #copiedTerm()}. */
  long applied() {
    return appliedVolatile;
  }

  /** A term seen elsewhere (the lock, an announcement): batches of older terms are refused from now on. */
  void sawTerm(long term) {
    newestTerm = Math.max(newestTerm, term);
  }

  Future<Void> start() {
    isActive = true;
    batches = vertx.eventBus().consumer(addresses.node(), this::onBatch);
    return batches.completion().onSuccess(v -> subscribe());
  }

  Future<Void> stop() {
    isActive = false;
    followedTerm = -1;
    return batches == null ? Future.succeededFuture() : batches.unregister();
  }

  /** A new primary announced itself: follow it. */
  void onAnnouncement(long term) {
    sawTerm(term);
    if (isActive && term != followedTerm) {
      followedTerm = -1;
      subscribe();
    }
  }

  /** Every few hundred milliseconds: a primary that went silent is looked for again. */
  void tick() {
    if (isActive && !isSubscribing && (followedTerm < 0 || System.nanoTime() - lastHeardNanos > SILENCE_NANOS)) {
      subscribe();
    }
  }

  private void subscribe() {
    if (!isActive || isSubscribing) {
      return;
    }
    isSubscribing = true;
    listener.syncing();
    JsonObject hello = new JsonObject().put("node", addresses.node()).put("term", newestTerm);
    vertx.eventBus().<JsonObject>request(addresses.primary(), hello, new DeliveryOptions().setSendTimeout(2_000))
        .onComplete(r -> {
          isSubscribing = false;
          if (!isActive) {
            return;
          }
          if (r.succeeded()) {
            long term = r.result().body().getLong("term");
            sawTerm(term);
            followedTerm = term;
            lastHeardNanos = System.nanoTime();
            log.info("replication: following the primary of term {}", term);
          } else {
            log.debug("replication: no primary to follow yet: {}", r.cause().toString());
          }
        });
  }

  private void onBatch(Message<Buffer> message) {
    Batch batch = Batch.decode(message.body());
    if (batch.term() < newestTerm) {
      message.fail(409, "STALE_TERM " + newestTerm);
      return;
    }
    sawTerm(batch.term());
    if (!isActive || batch.term() != followedTerm) {
      message.fail(410, "NOT_FOLLOWING term " + batch.term());
      return;
    }
    lastHeardNanos = System.nanoTime();
    // One batch after the other, whatever the engine's answers take.
    work = work.transform(v -> apply(batch)).onComplete(r -> {
      if (r.succeeded()) {
        message.reply(Batch.ack(batch.term(), applied));
      } else {
        log.error("replication: could not apply a batch: {}", r.cause().toString());
        message.fail(500, "APPLY_FAILED " + r.cause().getMessage());
        followedTerm = -1;
      }
    });
  }

  private Future<Void> apply(Batch batch) {
    switch (batch.kind()) {
      case Batch.RESET -> {
        listener.syncing();
        copiedTerm = -1;
        applied = batch.first();
        appliedBytes = 0;
        return engine.run(port -> {
          port.dropAllJobs();
          return null;
        }).mapEmpty();
      }
      case Batch.COPY -> {
        applied = batch.first();
        appliedBytes = batch.logged();
        return applyRecords(batch.records());
      }
      default -> {
        if (batch.frames().length() == 0 || batch.last() <= applied) {
          // A heartbeat, or a batch the copy already holds: the copy is complete.
          copiedTerm = batch.term();
          appliedVolatile = applied;
          listener.following(batch.term(), Math.max(0, batch.logged() - appliedBytes));
          return Future.succeededFuture();
        }
        List<BinlogRecord> records = batch.records();
        return applyRecords(records).onSuccess(v -> {
          applied = batch.last();
          appliedVolatile = applied;
          copiedTerm = batch.term();
          appliedBytes += batch.frames().length();
          listener.following(batch.term(), Math.max(0, batch.logged() - appliedBytes));
        // Published before the acknowledgement: whatever a client was told is known to the other
        // standbys as held here, so none that lacks it takes over (see ReplicationNode.mayCompete).
        }).compose(v -> positions.apply(batch.term(), batch.last()));
      }
    }
  }

  private Future<Void> applyRecords(List<BinlogRecord> records) {
    return engine.run(port -> {
      port.apply(records);
      return null;
    }).mapEmpty();
  }
}
