package io.github.vertxbeanstalkd.replication.shipping;

import io.github.vertxbeanstalkd.cluster.AddressRoutes;
import io.github.vertxbeanstalkd.persistence.ReceivedFrames;
import io.github.vertxbeanstalkd.replication.election.Addresses;
import io.github.vertxbeanstalkd.replication.election.Candidacy;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A standby's side of log shipping: it subscribes to whoever is primary, takes the copy (its own
 * jobs dropped first, so a node that was primary never keeps a diverged tail; then the slices and
 * the changes logged meanwhile, in the primary's order) or resumes, then applies every batch of
 * changes, in order, to its engine and its own binlog, and answers with what it applied. It holds
 * a complete copy only once the copy's last slice is applied. It refuses a batch of a term older
 * than the newest it has seen. Runs on the replication node's context.
 */
public final class Follower implements Candidacy.Stream {
  private static final Logger log = LoggerFactory.getLogger(Follower.class);
  /** Without a batch or heartbeat for this long, the standby subscribes again. */
  private static final long SILENCE_NANOS = 3_000_000_000L;
  /** Jobs dropped in one engine turn before a copy: the engine stays responsive at any depth. */
  private static final int DROP_JOBS_PER_TURN = 20_000;
  /** The frames a standby keeps of what it applied, for the standbys that may resume on it once it takes over. */
  private static final long RECEIVED_BYTES = 16L << 20;

  /** Hears how the standby stands. */
  public interface Listener {
    void syncing();

    void following(long term, long lagBytes);
  }

  private final Vertx vertx;
  private final Addresses addresses;
  private final EngineShipping engine;
  private final Listener listener;
  private MessageConsumer<Buffer> batches;
  private MessageConsumer<JsonObject> positionQueries;
  private final PositionFile positions;
  /** Where this node kept its own stream's anchors when it was primary; null without a log on disk. */
  private final StreamAnchors anchors;
  /** The position last written to {@link #positions}, and whether a write is under way (and its end). */
  private PositionFile.Position written;
  private boolean isWritingPosition;
  private Future<Void> positionWritten = Future.succeededFuture();
  /** This node's own binlog sequence after it applied up to {@link #appliedBytes}. */
  private long ownSequence;
  private boolean isActive;
  private long newestTerm;
  private long followedTerm = -1;
  /** The cluster node id of the primary followed, as it answered the subscription. */
  private String followedNode;
  /**
   * How far this node applied the history of {@link #copiedTerm} (or of the copy under way), as an
   * offset in its stream of frames; -1 while it knows none. Offsets go on across a take-over (see
   * {@link PriorStream}), so a position means the same on every node that holds that history.
   */
  private long appliedBytes = -1;
  /** The frames applied since the last complete copy, up to a bound: this node's {@link PriorStream} if it takes over. */
  private Backlog received;
  /** Between a copy's RESET and its last slice: the jobs held are not a copy of anything yet. */
  private boolean isCopying;
  /** Batches received and not yet applied: a standby busy applying is not one whose primary went silent. */
  private int unappliedBatches;
  private volatile long lastHeardNanos;
  /** When this node last said that no primary answered its subscription. */
  private long lastUnansweredLogNanos = System.nanoTime();
  private static final long UNANSWERED_LOG_NANOS = 10_000_000_000L;
  /** The term whose copy this node completed and follows; -1 while it holds no complete copy. */
  private volatile long copiedTerm = -1;
  private volatile long appliedVolatile;
  private boolean isSubscribing;
  /** Counts the hellos sent: the answer to one given up on is ignored. */
  private long hellos;
  /** The term the hello under way was sent to (its primary's own address); 0: to whoever is primary. */
  private long helloTerm;
  /** The hello under way carries a rewind's ids, which no other hello would: it is never given up on. */
  private boolean isHelloRewinding;
  /** Counts the streams that broke (a batch this node could not apply): one that broke while a hello was under way. */
  private long streamBreaks;
  private final AddressRoutes routes;
  private Future<?> work = Future.succeededFuture();
  /**
   * The stream this node wrote as primary before it restarted, until it rejoins: its position is
   * then where its own log ends in that stream, and a new primary whose history parts from it
   * earlier has it rewind instead of copy. Null when there is none, or once used.
   */
  private OwnStream own;
  /**
   * A rewind under way: the ids of the jobs this node's diverged tail touched, which the primary
   * sends again once it resumed this node from where the histories part; null otherwise.
   */
  private long[] refetch;
  private long refetchTerm;

  /** @param positions where this node's position survives a restart; null keeps it in memory only */
  Follower(Vertx vertx, Addresses addresses, EngineShipping engine, Listener listener, PositionFile positions) {
    this(vertx, addresses, engine, listener, positions, null, null);
  }

  /**
   * @param own the stream this node wrote as primary before it restarted ({@link OwnStream#claim}), or null
   * @param anchors where this node keeps its own stream's anchors while primary, deleted before a copy; or null
   */
  public Follower(Vertx vertx, Addresses addresses, EngineShipping engine, Listener listener, PositionFile positions,
      OwnStream own, StreamAnchors anchors) {
    this.own = own;
    this.anchors = anchors;
    this.vertx = vertx;
    this.addresses = addresses;
    this.engine = engine;
    this.listener = listener;
    this.positions = positions;
    this.routes = new AddressRoutes(vertx);
  }

  /**
   * Reads the position this node kept when it last followed: its engine, replayed from its own
   * binlog, holds at least that much of the primary's stream, so it can resume from there. A node
   * that was primary since ({@link OwnStream}) holds its own stream up to where its log ends.
   */
  public Future<Void> loadPosition() {
    if (positions == null) {
      return Future.succeededFuture();
    }
    OwnStream wrote = own;
    return vertx.executeBlocking(() -> {
      if (wrote != null) {
        // It was primary after it last followed: where its own log ends in its own stream.
        long end = wrote.end();
        if (end >= 0) {
          return new PositionFile.Position(wrote.term(), end);
        }
        log.info("replication: this node's log cannot be read from its stream anchors on; it holds no position");
        return null;
      }
      return positions.read();
    }).onSuccess(p -> {
      if (p == null) {
        releaseOwn();
        return;
      }
      copiedTerm = p.term();
      appliedBytes = p.offset();
      appliedVolatile = appliedBytes;
      received = new Backlog(RECEIVED_BYTES, appliedBytes);
      // Its own stream's end is no position file's: nothing to write until it follows.
      written = p;
      sawTerm(p.term());
      if (own != null) {
        log.info("replication: this node was the primary of term {}; its log holds that stream up to offset {}",
            p.term(), p.offset());
      } else {
        log.info("replication: this node applied the stream of term {} up to offset {} before it stopped",
            p.term(), p.offset());
      }
    }).mapEmpty();
  }

  /**
   * What this node holds of the stream it followed, for it to take over with: the term, the offset,
   * and the frames it kept; {@link PriorStream#NONE} when it holds no complete copy.
   */
  public PriorStream priorStream() {
    if (copiedTerm < 0 || isCopying || appliedBytes < 0) {
      return PriorStream.NONE;
    }
    return new PriorStream(copiedTerm, appliedBytes,
        received != null && received.endsAt() == appliedBytes ? received.entries() : java.util.List.of());
  }

  /** This node takes over: its log is its own from now on, so it no longer holds a copy of another's stream. */
  public Future<Void> forgetCopy() {
    releaseOwn();
    refetch = null;
    copiedTerm = -1;
    appliedBytes = -1;
    received = null;
    written = null;
    return positions == null ? Future.succeededFuture() : vertx.executeBlocking(() -> {
      positions.delete();
      return null;
    });
  }

  @Override
  public long newestTerm() {
    return newestTerm;
  }

  /** The cluster node id of the primary this node subscribed to last; null before it did. */
  @Override
  public String followedNode() {
    return followedNode;
  }

  /**
   * The term of the primary whose stream this node holds a complete copy of, and follows or
   * followed last; -1 when it holds none (never copied, or a new copy is under way).
   */
  @Override
  public long copiedTerm() {
    return copiedTerm;
  }

  /** When the primary was last heard from (a batch or a heartbeat), on System.nanoTime. */
  @Override
  public long lastHeardNanos() {
    return lastHeardNanos;
  }

  /** How far this node applied the stream of {@link #copiedTerm()}: an offset in its frames. */
  @Override
  public long applied() {
    return appliedVolatile;
  }

  /** A term seen elsewhere (the lock, an announcement): batches of older terms are refused from now on. */
  public void sawTerm(long term) {
    newestTerm = Math.max(newestTerm, term);
  }

  /**
   * Answers other nodes that consider taking over with how far this node applied the stream (see
   * ReplicationNode.mayCompete), for as long as the node runs, whatever its role.
   */
  public Future<Void> answerPositionQueries() {
    positionQueries = vertx.eventBus().consumer(addresses.position(),
        msg -> msg.reply(new JsonObject().put("term", copiedTerm).put("applied", appliedVolatile)));
    return positionQueries.completion();
  }

  public Future<Void> start() {
    isActive = true;
    batches = vertx.eventBus().consumer(addresses.node(), this::onBatch);
    return batches.completion().onSuccess(v -> subscribe());
  }

  /**
   * Stops following: no batch is taken from now on, and the future completes once the batches
   * taken are applied and a position write under way is done, so that nothing of this node's
   * follows its stop onto its disk (a test's directory is deleted right after).
   */
  public Future<Void> stop() {
    isActive = false;
    followedTerm = -1;
    Future<Void> unregistered = batches == null ? Future.succeededFuture() : batches.unregister();
    return unregistered.transform(v -> work.transform(w -> positionWritten.transform(p -> Future.<Void>succeededFuture())));
  }

  /** A new primary announced itself: follow it. */
  public void onAnnouncement(long term) {
    sawTerm(term);
    if (isActive && term != followedTerm) {
      followedTerm = -1;
      if (isSubscribing && helloTerm != term && !isHelloRewinding) {
        // The hello under way went to whoever served the primary's address when it was sent: the
        // departed primary, whose silence it would wait out (2 s). It is given up on, and the next
        // goes to the announced primary's own address. Its answer, if one comes, is ignored; a
        // primary it reached gets the same hello again (the same position), and batches of an
        // older term than the one announced are refused.
        isSubscribing = false;
      }
      subscribe(term);
    }
  }

  /** Every few hundred milliseconds: a primary that went silent is looked for again. */
  public void tick() {
    if (isActive && !isSubscribing && (followedTerm < 0
        || (unappliedBatches == 0 && System.nanoTime() - lastHeardNanos > SILENCE_NANOS))) {
      subscribe();
    }
    keepPosition();
  }

  /**
   * Writes how far this node applied, once its own binlog made that much durable. File work runs
   * in order on the worker (executeBlocking is ordered per context), so a copy's delete comes
   * after any write started before it.
   */
  private void keepPosition() {
    PositionFile.Position now = new PositionFile.Position(copiedTerm, appliedBytes);
    if (positions == null || !isActive || isWritingPosition || copiedTerm < 0 || appliedBytes < 0 || isCopying
        || now.equals(written)) {
      return;
    }
    isWritingPosition = true;
    long own = ownSequence;
    positionWritten = engine.run(port -> port.localDurableSequence())
        .compose(durable -> durable < own ? Future.succeededFuture(false) : vertx.executeBlocking(() -> {
          // A copy that started meanwhile makes this position wrong: it is not written.
          if (copiedTerm != now.term()) {
            return false;
          }
          positions.write(now);
          return true;
        }))
        .onComplete(r -> {
          isWritingPosition = false;
          if (r.succeeded() && r.result()) {
            written = now;
          } else if (r.failed()) {
            log.warn("replication: could not keep this node's position: {}", r.cause().toString());
          }
        }).mapEmpty();
  }

  private void subscribe() {
    subscribe(0);
  }

  /** Sends a hello to the primary of {@code toTerm}, or, with 0, to whoever serves the primary's address. */
  private void subscribe(long toTerm) {
    if (!isActive || isSubscribing) {
      return;
    }
    isSubscribing = true;
    long sent = ++hellos;
    long breaksBefore = streamBreaks;
    helloTerm = toTerm;
    listener.syncing();
    JsonObject hello = new JsonObject().put("node", addresses.node()).put("term", newestTerm);
    long[] rewinding = refetch;
    refetch = null;
    if (rewinding != null) {
      JsonArray ids = new JsonArray(new ArrayList<>(rewinding.length));
      for (long id : rewinding) {
        ids.add(id);
      }
      hello.put("resumeTerm", refetchTerm).put("resumeFrom", appliedBytes).put("refetch", ids);
    } else if (copiedTerm >= 0 && appliedBytes >= 0 && !isCopying) {
      hello.put("resumeTerm", copiedTerm).put("resumeFrom", appliedBytes);
      if (own != null) {
        hello.put("ownStream", true);
      }
    }
    isHelloRewinding = rewinding != null;
    String to = toTerm > 0 ? addresses.primary(toTerm) : addresses.primary();
    vertx.eventBus().<JsonObject>request(to, hello, new DeliveryOptions().setSendTimeout(2_000))
        .onComplete(r -> {
          if (sent != hellos) {
            return; // given up on: a newer hello is under way or answered
          }
          isSubscribing = false;
          if (!isActive) {
            return;
          }
          if (r.succeeded() && r.result().body().getLong("rewindTo") != null && own != null) {
            rewind(r.result().body().getLong("term"), r.result().body().getLong("rewindTo"));
          } else if (r.succeeded() && streamBreaks != breaksBefore && rewinding == null) {
            // A stream broke while this hello was under way: that of a hello given up on, which
            // reached the same primary first (its batches applied, then this hello's restart from the
            // same position refused). The primary dropped this node; it subscribes again at once,
            // from where it is, instead of waiting out the silence of a stream that no longer comes.
            subscribe(toTerm);
          } else if (r.succeeded()) {
            releaseOwn();
            long term = r.result().body().getLong("term");
            sawTerm(term);
            followedTerm = term;
            followedNode = r.result().body().getString("node");
            lastHeardNanos = System.nanoTime();
            boolean resumed = r.result().body().getBoolean("resumed", false);
            log.info("replication: following the primary of term {}{}", term, !resumed ? ""
                : rewinding != null ? ", rewinding from offset " + appliedBytes + " of term " + refetchTerm
                : ", resuming from offset " + appliedBytes + " of term " + copiedTerm);
          } else {
            // After a split and merge this node's route to the primary's address may name itself
            // (NO_HANDLERS) or a node that no longer serves it (TIMEOUT): see AddressRoutes.
            if (AddressRoutes.mayBeStale(r.cause())) {
              routes.refresh(addresses.primary());
            }
            logUnanswered(r.cause());
          }
        });
  }

  /**
   * The new primary of {@code term} holds this node's own stream only up to {@code offset}: the
   * jobs its log changed past there are read from the log, its position is forgotten (from now on
   * it holds no copy of anything until the rewind ends), and it subscribes again to resume from
   * there and fetch those jobs. When the log cannot tell which jobs, it subscribes for a full copy.
   */
  private void rewind(long term, long offset) {
    OwnStream wrote = own;
    own = null;
    long ownTerm = copiedTerm;
    long loggedUpTo = appliedBytes;
    isSubscribing = true;
    vertx.executeBlocking(() -> {
      try {
        return wrote.touchedAfter(offset);
      } finally {
        wrote.release();
      }
    }).compose(ids -> {
      if (ids == null) {
        return Future.succeededFuture((long[]) null);
      }
      copiedTerm = -1;
      isCopying = true;
      written = null;
      received = null;
      appliedBytes = offset;
      Future<Void> forgotten = positions == null ? Future.succeededFuture() : vertx.executeBlocking(() -> {
        positions.delete();
        return null;
      });
      return forgotten.map(v -> ids);
    }).onComplete(r -> {
      isSubscribing = false;
      if (r.succeeded() && r.result() != null) {
        refetch = r.result();
        refetchTerm = ownTerm;
        log.info("replication: this node's log goes on past offset {} of term {} to {}, which the primary of term {} "
            + "does not hold: it rewinds there, fetching again the {} jobs its tail touched", offset, ownTerm,
            loggedUpTo, term, refetch.length);
      } else {
        log.info("replication: this node cannot tell which jobs its log changed past offset {} of term {}{}; it "
            + "takes a full copy", offset, ownTerm, r.failed() ? " (" + r.cause() + ")" : "");
        copiedTerm = -1;
        isCopying = true;
      }
      subscribe();
    });
  }

  /** The stream this node wrote as primary is used, or of no use any more: the segments kept for it go. */
  private void releaseOwn() {
    OwnStream wrote = own;
    own = null;
    if (wrote != null) {
      vertx.executeBlocking(() -> {
        wrote.release();
        return null;
      }).onFailure(e -> log.warn("replication: could not delete the segments kept for a rewind: {}", e.toString()));
    }
  }

  /** Said now and then, not at every try: a node that stays syncing says why. */
  private void logUnanswered(Throwable cause) {
    if (System.nanoTime() - lastUnansweredLogNanos > UNANSWERED_LOG_NANOS) {
      lastUnansweredLogNanos = System.nanoTime();
      log.info("replication: no primary to follow yet: {}", cause.toString());
    }
  }

  private void onBatch(Message<Buffer> message) {
    Batch batch = Batch.decode(message.body());
    if (batch.term() < newestTerm) {
      message.fail(409, "STALE_TERM " + newestTerm);
      return;
    }
    sawTerm(batch.term());
    if (isActive && isSubscribing && followedTerm < 0) {
      // The primary's first batch can come before its answer to the subscription.
      followedTerm = batch.term();
      // Which node that is, its answer says.
      followedNode = null;
    }
    if (!isActive || batch.term() != followedTerm) {
      message.fail(410, "NOT_FOLLOWING term " + batch.term());
      return;
    }
    lastHeardNanos = System.nanoTime();
    unappliedBatches++;
    // One batch after the other, whatever the engine's answers take.
    work = work.transform(v -> apply(batch)).onComplete(r -> {
      unappliedBatches--;
      lastHeardNanos = System.nanoTime();
      if (r.succeeded()) {
        message.reply(Batch.ack(batch.term(), appliedBytes));
      } else {
        log.error("replication: could not apply a batch: {}", r.cause().toString());
        message.fail(500, "APPLY_FAILED " + r.cause().getMessage());
        followedTerm = -1;
        streamBreaks++;
      }
    });
  }

  private Future<Void> apply(Batch batch) {
    switch (batch.kind()) {
      case Batch.RESET -> {
        listener.syncing();
        releaseOwn();
        refetch = null;
        copiedTerm = -1;
        isCopying = true;
        written = null;
        appliedBytes = -1;
        received = null;
        // The position goes before the jobs it describes: a crash in between must not resume from
        // it, and a node that dies in the middle of a copy starts it over when it comes back.
        Future<Void> forgotten = positions == null ? Future.succeededFuture() : vertx.executeBlocking(() -> {
          positions.delete();
          // So do the anchors of a stream this node wrote as primary: a copy changes the log past them.
          if (anchors != null) {
            anchors.delete();
          }
          return null;
        });
        return forgotten.compose(v -> engine.run(port -> {
          port.follow();
          return null;
        })).compose(v -> dropJobsFrom(0));
      }
      case Batch.COPY, Batch.COPY_END -> {
        if (!isCopying) {
          return Future.failedFuture("a copy's slice outside a copy");
        }
        return applyRecords(batch.records()).onSuccess(v -> {
          appliedBytes = batch.logged();
          if (batch.kind() == Batch.COPY_END) {
            isCopying = false;
            copiedTerm = batch.term();
            appliedVolatile = appliedBytes;
            // The history this node can serve, if it takes over, starts where its copy ends.
            received = new Backlog(RECEIVED_BYTES, appliedBytes);
            listener.following(batch.term(), 0);
          }
        });
      }
      default -> {
        if (batch.frames().length() == 0) {
          // A heartbeat: sent once this node has everything sent before it. One at this node's own
          // offset, from a new primary it resumed on, says that it holds that primary's history.
          if (!isCopying && appliedBytes >= 0 && batch.logged() == appliedBytes) {
            copiedTerm = batch.term();
          }
          if (!isCopying && copiedTerm == batch.term()) {
            listener.following(batch.term(), appliedBytes < 0 ? 0 : Math.max(0, batch.logged() - appliedBytes));
          }
          return Future.succeededFuture();
        }
        long startsAt = batch.logged() - batch.frames().length();
        if (appliedBytes >= 0 && startsAt != appliedBytes) {
          // The stream must come whole and in order: anything else and this node subscribes again.
          return Future.failedFuture("a batch from offset " + startsAt + " after offset " + appliedBytes);
        }
        return applyRecords(batch.records()).onSuccess(v -> {
          appliedBytes = batch.logged();
          if (!isCopying) {
            if (received != null && received.endsAt() == startsAt) {
              received.add(new StandbyLink.Held(batch.first(), batch.last(), batch.logged(), batch.frames()));
            }
            appliedVolatile = appliedBytes;
            copiedTerm = batch.term();
            listener.following(batch.term(), 0);
          }
        });
      }
    }
  }

  /** Drops this node's jobs a turn's worth at a time, from slot {@code cursor} on. */
  private Future<Void> dropJobsFrom(int cursor) {
    return engine.run(port -> port.dropJobs(cursor, DROP_JOBS_PER_TURN))
        .compose(next -> next < 0 ? Future.succeededFuture() : dropJobsFrom(next));
  }

  private Future<Void> applyRecords(ReceivedFrames records) {
    return engine.run(port -> {
      port.apply(records);
      return port.lastSequence();
    }).onSuccess(own -> ownSequence = own).mapEmpty();
  }
}
