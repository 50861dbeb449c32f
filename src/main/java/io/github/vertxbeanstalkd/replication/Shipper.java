package io.github.vertxbeanstalkd.replication;

import io.github.vertxbeanstalkd.config.ReplicationConfig;
import io.github.vertxbeanstalkd.persistence.BinlogRecord;
import io.github.vertxbeanstalkd.persistence.RecordFrames;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A primary's side of log shipping: every standby that subscribes is first copied (its jobs
 * dropped, then the live jobs as snapshots) and then follows the changes as they are logged, each
 * batch encoded once for all standbys. What the standbys acknowledge decides, against minAcks,
 * what the engine may acknowledge to clients. Runs on the replication node's context.
 */
final class Shipper {
  private static final Logger log = LoggerFactory.getLogger(Shipper.class);
  /** Jobs per copy batch. */
  private static final int COPY_JOBS = 256;
  /** Batches a standby may leave unacknowledged before it is dropped (it subscribes again and is copied). */
  private static final int MAX_UNACKED = 4096;
  private static final long HEARTBEAT_NANOS = 300_000_000L;
  private static final int HELD_BATCH_BYTES = 1 << 20;
  /** Live batches a standby may have in flight before changes wait to be merged into the next one. */
  private static final int LIVE_IN_FLIGHT = 1;
  /** Changes that may wait for a standby that does not acknowledge before it is dropped (and copied again). */
  private static final int MAX_PENDING_BYTES = 64 << 20;
  /** How much of this term's stream a primary keeps for standbys that resume (Redis keeps 1 MiB by default). */
  private static final long BACKLOG_BYTES = 16L << 20;

  private final Vertx vertx;
  private final ReplicationConfig config;
  private final EngineShipping engine;
  private final long term;
  private final Runnable onNewerTerm;
  private final LongConsumer ackNanos;
  private final Map<String, StandbyLink> links = new HashMap<>();
  private final DeliveryOptions delivery;
  private long logged;
  private long lastSequence;
  private long acknowledgedSent = -1;
  /** What was logged before this node became primary: it came from the group, so it needs no new acknowledgement. */
  private long floor;
  private Boolean acceptsSent;
  /** Whether the last log line said this primary is degraded; it starts so, with no standby yet. */
  private boolean isDegradedLogged = true;
  /** This term's recent batches, for standbys that resume; null until the term's start is known. */
  private Backlog backlog;
  private boolean isStopped;

  /**
   * @param onNewerTerm a standby answered with a newer term: another node is primary, step down
   * @param ackNanos hears how long each acknowledgement took (the ack duration histogram)
   */
  Shipper(Vertx vertx, ReplicationConfig config, EngineShipping engine, long term, Runnable onNewerTerm,
      LongConsumer ackNanos) {
    this.vertx = vertx;
    this.config = config;
    this.engine = engine;
    this.term = term;
    this.onNewerTerm = onNewerTerm;
    this.ackNanos = ackNanos;
    this.delivery = new DeliveryOptions().setSendTimeout(Math.max(2_000, 2 * config.ackTimeoutMillis()));
  }

  /** Changes up to {@code sequence} were logged before this term: acknowledged as they are. */
  void acknowledgedUpTo(long sequence) {
    floor = Math.max(floor, sequence);
    lastSequence = Math.max(lastSequence, sequence);
    if (backlog == null) {
      backlog = new Backlog(BACKLOG_BYTES, lastSequence);
    }
    recompute();
  }

  /** Standbys that are caught up now. */
  int caughtUp() {
    long now = System.nanoTime();
    int n = 0;
    for (StandbyLink l : links.values()) {
      n += l.isCaughtUp(now, ackTimeoutNanos()) ? 1 : 0;
    }
    return n;
  }

  /** Fewer caught-up standbys than minAcks. */
  boolean isDegraded() {
    return config.minAcks() > 0 && caughtUp() < config.minAcks();
  }

  void stop() {
    isStopped = true;
    links.clear();
  }

  /**
   * A standby asked to follow. One that applied this term's stream up to {@code resumeFrom} (of
   * {@code resumeTerm}) resumes from there when the backlog still holds everything after it;
   * any other is copied, then follows.
   *
   * @return whether it resumes (no copy)
   */
  boolean subscribe(String address, long resumeTerm, long resumeFrom) {
    StandbyLink old = links.remove(address);
    if (old != null) {
      old.state = StandbyLink.State.GONE;
    }
    StandbyLink link = new StandbyLink(address);
    links.put(address, link);
    List<StandbyLink.Held> missing = resumeTerm == term && backlog != null ? backlog.after(resumeFrom, lastSequence)
        : null;
    if (missing != null) {
      link.state = StandbyLink.State.LIVE;
      link.copyAt = resumeFrom;
      link.acked = resumeFrom;
      link.held.addAll(missing);
      log.info("replication: standby {} resumes from sequence {} ({} batches from the backlog, term {})", address,
          resumeFrom, missing.size(), term);
      flushHeld(link);
      recompute();
      return true;
    }
    log.info("replication: standby {} subscribed; copying the live jobs (term {})", address, term);
    send(link, Batch.of(Batch.RESET, term, lastSequence, lastSequence, logged, List.of()), () ->
        engine.run(port -> new Object[] {port.lastSequence(), port.liveJobIds(), port.nextJobId()}).onSuccess(start -> {
          link.copyAt = (Long) start[0];
          link.copyIds = (long[]) start[1];
          // Jobs put and deleted before the copy are not in it, but their ids are taken: the copy
          // starts with the high-water mark, so ids never go back after this standby is promoted.
          send(link, Batch.of(Batch.COPY, term, link.copyAt, link.copyAt, logged,
              List.of(new BinlogRecord.HighWater((Long) start[2]))), () -> copyNext(link));
        }));
    return false;
  }

  private void copyNext(StandbyLink link) {
    if (link.state != StandbyLink.State.COPYING || isStopped) {
      return;
    }
    int from = link.copyCursor;
    int to = Math.min(link.copyIds.length, from + COPY_JOBS);
    if (from == to) {
      link.state = StandbyLink.State.LIVE;
      // Its copy holds everything logged up to the copy's start: acknowledged that far.
      link.acked = Math.max(link.acked, link.copyAt);
      log.info("replication: standby {} copied {} jobs and follows from sequence {}", link.address,
          link.copyIds.length, link.copyAt);
      link.copyIds = null;
      flushHeld(link);
      recompute();
      return;
    }
    link.copyCursor = to;
    engine.<List<BinlogRecord.JobSnapshot>>run(port -> port.snapshotsOf(link.copyIds, from, to)).onSuccess(jobs ->
        send(link, Batch.of(Batch.COPY, term, link.copyAt, link.copyAt, logged, new ArrayList<>(jobs)),
            () -> copyNext(link)));
  }

  /**
   * The changes held while a copy ran, sent in batches of up to {@link #HELD_BATCH_BYTES}: a long
   * copy under a heavy load holds many small batches, more than a standby may leave unacknowledged.
   */
  private void flushHeld(StandbyLink link) {
    Buffer merged = null;
    long first = 0;
    long last = 0;
    long loggedThen = 0;
    for (StandbyLink.Held h = link.held.poll(); h != null; h = link.held.poll()) {
      if (h.last() <= link.copyAt) {
        continue;
      }
      if (merged == null) {
        merged = Buffer.buffer();
        first = h.first();
      }
      merged.appendBuffer(h.frames());
      last = h.last();
      loggedThen = h.logged();
      if (merged.length() >= HELD_BATCH_BYTES) {
        sendLive(link, first, last, loggedThen, merged);
        merged = null;
      }
    }
    if (merged != null) {
      sendLive(link, first, last, loggedThen, merged);
    }
  }

  /** What the engine logged in one turn: encoded once, sent to every following standby. */
  void onChanges(ChangeOutbox.Changes changes) {
    if (isStopped || changes.records().isEmpty()) {
      return;
    }
    long[] seq = changes.sequences();
    Buffer frames = Buffer.buffer(RecordFrames.encode(changes.records()));
    logged += frames.length();
    long first = seq[0];
    long last = seq[seq.length - 1];
    lastSequence = last;
    if (backlog != null) {
      backlog.add(new StandbyLink.Held(first, last, logged, frames));
    }
    for (StandbyLink link : links.values()) {
      if (link.state == StandbyLink.State.LIVE) {
        offerLive(link, first, last, logged, frames);
      } else if (link.copyAt >= 0 && last > link.copyAt) {
        link.held.add(new StandbyLink.Held(first, last, logged, frames));
      } else if (link.copyAt < 0) {
        // The copy's starting point is not known yet; the records after it are kept, and filtered then.
        link.held.add(new StandbyLink.Held(first, last, logged, frames));
      }
    }
    if (config.minAcks() == 0 || links.isEmpty()) {
      recompute();
    }
  }

  /**
   * Group commit between the nodes: a change goes at once to a standby with no live batch in
   * flight; otherwise it waits, merged with whatever else comes, until the batch in flight is
   * acknowledged. Under load many engine turns (many connections) share one round trip; alone, a
   * change never waits.
   */
  private void offerLive(StandbyLink link, long first, long last, long loggedBytes, Buffer frames) {
    if (link.liveInFlight < LIVE_IN_FLIGHT && link.pending == null) {
      sendLive(link, first, last, loggedBytes, frames);
      return;
    }
    if (link.pending == null) {
      link.pending = Buffer.buffer(Math.max(4096, frames.length() * 4));
      link.pendingFirst = first;
    }
    link.pending.appendBuffer(frames);
    link.pendingLast = last;
    link.pendingLogged = loggedBytes;
    if (link.pending.length() > MAX_PENDING_BYTES) {
      drop(link, "more than " + (MAX_PENDING_BYTES >> 20) + " MiB of changes waited for it");
    }
  }

  /** A live batch was acknowledged: what waited meanwhile goes as one batch. */
  private void sendPending(StandbyLink link) {
    if (link.pending != null && link.liveInFlight < LIVE_IN_FLIGHT) {
      Buffer frames = link.pending;
      link.pending = null;
      sendLive(link, link.pendingFirst, link.pendingLast, link.pendingLogged, frames);
    }
  }

  private void sendLive(StandbyLink link, long first, long last, long loggedBytes, Buffer frames) {
    if (link.copyAt >= 0 && last <= link.copyAt) {
      return;
    }
    long sentNanos = System.nanoTime();
    Batch batch = new Batch(Batch.LIVE, term, first, last, loggedBytes, frames);
    link.liveInFlight++;
    send(link, batch, () -> {
      ackNanos.accept(System.nanoTime() - sentNanos);
      link.liveInFlight--;
      link.acked = Math.max(link.acked, last);
      sendPending(link);
      recompute();
    });
  }

  /** Every few hundred milliseconds: heartbeats to idle standbys, and what their silence means for acks. */
  void tick() {
    long now = System.nanoTime();
    for (StandbyLink link : links.values()) {
      if (link.state == StandbyLink.State.LIVE && link.unacked.isEmpty() && now - link.lastSentNanos > HEARTBEAT_NANOS) {
        send(link, new Batch(Batch.LIVE, term, link.acked, link.acked, logged, Buffer.buffer()), () -> {});
      }
    }
    recompute();
  }

  private void send(StandbyLink link, Batch batch, Runnable onAck) {
    if (link.state == StandbyLink.State.GONE || isStopped) {
      return;
    }
    if (link.unacked.size() >= MAX_UNACKED) {
      drop(link, "fell " + MAX_UNACKED + " batches behind");
      return;
    }
    long sentNanos = System.nanoTime();
    link.lastSentNanos = sentNanos;
    link.unacked.add(sentNanos);
    vertx.eventBus().<Buffer>request(link.address, batch.encode(), delivery).onComplete(r -> {
      link.unacked.poll();
      if (isStopped || link.state == StandbyLink.State.GONE) {
        return;
      }
      if (r.succeeded()) {
        onAck.run();
      } else if (r.cause() instanceof ReplyException re && re.failureType() == ReplyFailure.RECIPIENT_FAILURE
          && String.valueOf(re.getMessage()).startsWith("STALE_TERM")) {
        log.warn("replication: standby {} has seen a newer term ({}): this node is no longer primary",
            link.address, re.getMessage());
        onNewerTerm.run();
      } else {
        drop(link, r.cause().toString());
      }
    });
  }

  private void drop(StandbyLink link, String why) {
    if (links.remove(link.address) == link) {
      link.state = StandbyLink.State.GONE;
      log.warn("replication: standby {} dropped ({}); it is copied again when it subscribes", link.address, why);
      recompute();
    }
  }

  /** Tells the engine what it may acknowledge now: minAcks standbys' sequence, or the primary alone. */
  void recompute() {
    if (isStopped) {
      return;
    }
    long acknowledged;
    boolean accepts = true;
    int minAcks = config.minAcks();
    if (minAcks == 0) {
      acknowledged = Long.MAX_VALUE;
    } else {
      long now = System.nanoTime();
      long[] acked = links.values().stream().filter(l -> l.isCaughtUp(now, ackTimeoutNanos()))
          .mapToLong(l -> l.acked).toArray();
      boolean degraded = acked.length < minAcks;
      if (degraded != isDegradedLogged) {
        isDegradedLogged = degraded;
        if (degraded) {
          log.warn("replication: degraded: {} caught-up standbys, minAcks {}; {}", acked.length, minAcks,
              config.whenTooFewStandbys() == ReplicationConfig.WhenTooFewStandbys.SERVE
                  ? "changes are acknowledged on this node alone (whenTooFewStandbys: serve)"
                  : "changes are refused (whenTooFewStandbys: refuse)");
        } else {
          log.info("replication: no longer degraded: {} caught-up standbys, minAcks {}", acked.length, minAcks);
        }
      }
      if (acked.length >= minAcks) {
        Arrays.sort(acked);
        acknowledged = acked[acked.length - minAcks];
      } else if (config.whenTooFewStandbys() == ReplicationConfig.WhenTooFewStandbys.SERVE) {
        acknowledged = Long.MAX_VALUE;
      } else {
        acknowledged = acknowledgedSent < 0 ? 0 : acknowledgedSent;
        accepts = false;
      }
    }
    acknowledged = Math.max(acknowledged, floor);
    if (acknowledged != acknowledgedSent) {
      long a = acknowledged;
      acknowledgedSent = a;
      engine.send(port -> port.acknowledge(a));
    }
    if (acceptsSent == null || accepts != acceptsSent) {
      boolean a = accepts;
      acceptsSent = a;
      engine.send(port -> {
        port.acceptChanges(a);
        if (!a) {
          port.failUnacknowledged();
        }
      });
    }
  }

  private long ackTimeoutNanos() {
    return config.ackTimeoutMillis() * 1_000_000L;
  }
}
