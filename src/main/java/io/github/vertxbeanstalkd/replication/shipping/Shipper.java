package io.github.vertxbeanstalkd.replication.shipping;

import io.github.vertxbeanstalkd.engine.CopySlice;
import io.github.vertxbeanstalkd.config.ReplicationConfig;
import io.github.vertxbeanstalkd.persistence.RecordFrames;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A primary's side of log shipping: every standby that subscribes is either resumed from the
 * backlog or copied (its jobs dropped, then slices of the live jobs, each read in one engine turn,
 * interleaved in the engine's order with the changes logged meanwhile) and then follows the
 * changes as they are logged, each batch encoded once for all standbys. Each standby has a
 * window of bytes in flight and a bound on what may wait for it, so neither a copy nor a slow
 * standby holds more than that on this node's heap; a copy goes at the pace the standbys that
 * follow allow ({@link CopyPace}). What the standbys acknowledge decides, against
 * minAcks, what the engine may acknowledge to clients; with too few standbys, the primary
 * acknowledges alone only once the group's record holds that decision ({@link AloneDecision}).
 * Runs on the replication node's context.
 */
public final class Shipper {
  private static final Logger log = LoggerFactory.getLogger(Shipper.class);
  /**
   * The most one merged live batch holds. A batch's message, headers and all, stays within 1 MiB:
   * the event bus's buffers grow in powers of two on both ends, and a slice of exactly 1 MiB took
   * an array of 2 MiB at each of them.
   */
  static final int SLICE_BYTES = (1 << 20) - (32 << 10);
  /**
   * The bytes of jobs one copy slice holds, about (some 2,000 jobs of 100 B): each is framed in one
   * engine turn here and applied in one there, and the copy's pace ({@link CopyPace}) steps by slices.
   */
  static final int COPY_SLICE_BYTES = 256 << 10;
  /** Bytes a standby may have in flight, sent and not acknowledged, copy and live alike. */
  static final long WINDOW_BYTES = 4L << 20;
  /**
   * Batches a copying standby may have in flight: the primary reads and sends the next slices while
   * the standby applies one. A following standby has one live batch in flight and what comes
   * meanwhile waits, merged, for its acknowledgement: under load many engine turns share a round trip.
   */
  private static final int COPY_IN_FLIGHT = 16;
  private static final int LIVE_IN_FLIGHT = 1;
  /**
   * Bytes that may wait for a standby beyond its window before it is dropped (it subscribes again,
   * and resumes or is copied again). Waiting changes are mostly the very buffers the backlog keeps,
   * so this is twice the backlog: a standby resumed from a full backlog still has room.
   */
  static final long MAX_QUEUED_BYTES = 32L << 20;
  private static final long HEARTBEAT_NANOS = 300_000_000L;
  private static final long PROMOTED_GRACE_NANOS = 3_000_000_000L;
  /** How long a standby may take to drop its jobs before a copy (millions of deletes, logged). */
  private static final long RESET_TIMEOUT_MILLIS = 300_000;
  /** How much of this term's stream a primary keeps for standbys that resume (Redis keeps 1 MiB by default). */
  private static final long BACKLOG_BYTES = 16L << 20;

  private final Vertx vertx;
  private final ReplicationConfig config;
  private final EngineShipping engine;
  private final long term;
  private final Runnable onNewerTerm;
  private final LongConsumer ackNanos;
  private final Map<String, StandbyLink> links = new HashMap<>();
  /** The stream this node followed before it took over: standbys of that term at an offset it holds resume. */
  private final PriorStream prior;
  private final DeliveryOptions delivery;
  private final DeliveryOptions resetDelivery;
  /**
   * The offset in this history's stream of frames after the last change encoded: it goes on from
   * where the stream this node followed before it took over ended, as Redis's replication offset does.
   */
  private long logged;
  private long lastSequence;
  private long acknowledgedSent = -1;
  /** What was logged before this node became primary: it came from the group, so it needs no new acknowledgement. */
  private long floor;
  private Boolean acceptsSent;
  /** Whether the last log line said this primary is degraded; it starts so, with no standby yet. */
  private boolean isDegradedLogged = true;
  /** The history's recent frames (the prior stream's last, then this term's), for standbys that resume. */
  private final Backlog backlog;
  private long copies;
  /** Subscriptions answered with a full copy, and with a rewind of a diverged tail. */
  private long fullCopies;
  private long rewinds;
  private boolean isStopped;
  private final AloneDecision alone;
  /** How fast copies may go beside the standbys that follow. */
  private final CopyPace pace;
  /** Copy batches (resets, slices) sent to any standby so far: did a live round trip overlap one? */
  private long copyBatchesSent;
  /** The timer that sends again once the copy's hold ends, or -1. */
  private long paceTimer = -1;
  /** Since when fewer than minAcks standbys are caught up (System.nanoTime); 0 while enough are. */
  private long degradedSinceNanos;
  /**
   * A new primary does not ask to go on alone before this (System.nanoTime): its standbys subscribe
   * again and resume within a second or two, and a record of going alone would keep them from
   * taking over meanwhile.
   */
  private final long mayGoAloneFromNanos = System.nanoTime() + PROMOTED_GRACE_NANOS;
  /**
   * The last sequence this primary may have acknowledged alone: the standbys must hold it before
   * the record says they may take over. Known only once the engine answered where it stood when it
   * stopped acknowledging alone.
   */
  private long aloneUpTo;
  private boolean isAloneUpToKnown = true;

  /**
   * @param prior what this node held of the stream it followed before it took over
   * @param onNewerTerm a standby answered with a newer term: another node is primary, step down
   * @param ackNanos hears how long each acknowledgement took (the ack duration histogram)
   * @param record where this primary records that it goes on alone
   * @param isAlone the record says this term's primary holds changes no standby has (it took over
   *     from its own term, which went on alone): everything logged before counts as acknowledged alone
   */
  public Shipper(Vertx vertx, ReplicationConfig config, EngineShipping engine, long term, PriorStream prior,
      Runnable onNewerTerm, LongConsumer ackNanos, AloneRecord record, boolean isAlone) {
    this.vertx = vertx;
    this.prior = prior;
    this.logged = prior.offset();
    this.backlog = new Backlog(BACKLOG_BYTES, prior.startsAt());
    for (StandbyLink.Held h : prior.frames()) {
      // Another primary's sequences: what this node logged of them is acknowledged already (floor).
      backlog.add(new StandbyLink.Held(0, 0, h.logged(), h.frames()));
    }
    this.config = config;
    this.engine = engine;
    this.term = term;
    this.onNewerTerm = onNewerTerm;
    this.ackNanos = ackNanos;
    this.delivery = new DeliveryOptions().setSendTimeout(Math.max(2_000, 2 * config.ackTimeoutMillis()));
    this.resetDelivery = new DeliveryOptions().setSendTimeout(RESET_TIMEOUT_MILLIS);
    this.alone = new AloneDecision(term, record, isAlone, Math.max(1_000, config.ackTimeoutMillis()), onNewerTerm,
        this::recompute);
    this.isAloneUpToKnown = !isAlone;
    // A copy is held only while what waits for its standby is well within the bound it is dropped at.
    this.pace = new CopyPace(COPY_IN_FLIGHT, MAX_QUEUED_BYTES / 2);
  }

  /** Changes up to {@code sequence} were logged before this term: acknowledged as they are. */
  public void acknowledgedUpTo(long sequence) {
    floor = Math.max(floor, sequence);
    aloneUpTo = Math.max(aloneUpTo, sequence);
    isAloneUpToKnown = true;
    lastSequence = Math.max(lastSequence, sequence);
    recompute();
  }

  /** Standbys that are caught up now. */
  public int caughtUp() {
    long now = System.nanoTime();
    int n = 0;
    for (StandbyLink l : links.values()) {
      n += l.isCaughtUp(now, ackTimeoutNanos()) ? 1 : 0;
    }
    return n;
  }

  /** Fewer caught-up standbys than minAcks. */
  public boolean isDegraded() {
    return config.minAcks() > 0 && caughtUp() < config.minAcks();
  }

  /** The link to the standby at {@code address}, or null; for tests that watch its window. */
  StandbyLink link(String address) {
    return links.get(address);
  }

  /** Full copies started, for tests and logs. */
  long fullCopies() {
    return fullCopies;
  }

  /** Rewinds of a diverged tail started (a resume that fetches the tail's jobs again). */
  long rewinds() {
    return rewinds;
  }

  public void stop() {
    isStopped = true;
    if (paceTimer >= 0) {
      vertx.cancelTimer(paceTimer);
    }
    alone.stop();
    links.clear();
  }

  /**
   * A standby's subscription ({@code {"node", "term", "resumeTerm", "resumeFrom", "ownStream", "refetch"}},
   * see Follower) and this node's answer ({@code {"term", "resumed"}}, or {@code {"term", "rewindTo"}}
   * for a former primary that rewinds first and subscribes again).
   */
  public JsonObject answer(JsonObject hello) {
    String node = hello.getString("node");
    long resumeTerm = hello.getLong("resumeTerm", -1L);
    long resumeFrom = hello.getLong("resumeFrom", -1L);
    if (hello.getBoolean("ownStream", false)) {
      long rewindTo = rewindPoint(node, resumeTerm, resumeFrom);
      if (rewindTo >= 0) {
        return new JsonObject().put("term", term).put("rewindTo", rewindTo);
      }
    }
    JsonArray refetch = hello.getJsonArray("refetch");
    long[] ids = null;
    if (refetch != null) {
      ids = new long[refetch.size()];
      for (int i = 0; i < ids.length; i++) {
        ids[i] = refetch.getLong(i);
      }
    }
    return new JsonObject().put("term", term).put("resumed", subscribe(node, resumeTerm, resumeFrom, ids));
  }

  /**
   * A standby asked to follow. One that applied this history up to offset {@code resumeFrom} (this
   * term's stream, or the prior stream up to where this node took over) resumes from there when
   * the backlog still holds everything after it; any other is copied, then follows.
   *
   * @return whether it resumes (no copy)
   */
  boolean subscribe(String address, long resumeTerm, long resumeFrom) {
    return subscribe(address, resumeTerm, resumeFrom, null);
  }

  /**
   * A standby that was the primary of the stream this node followed before it took over, and whose
   * own log goes past {@code loggedUpTo} in it: the offset where the two histories part (this
   * node's take-over), for it to rewind to, or -1 when it cannot (another stream, no divergence, or
   * this node's backlog no longer reaches that offset): it then subscribes as any other standby.
   */
  long rewindPoint(String address, long ownTerm, long loggedUpTo) {
    if (ownTerm < 0 || ownTerm != prior.term() || loggedUpTo <= prior.offset()
        || backlog.from(prior.offset()) == null) {
      return -1;
    }
    log.info("replication: standby {} was the primary of term {} and logged it up to offset {}, past {} where this "
        + "node took over: it rewinds to there", address, ownTerm, loggedUpTo, prior.offset());
    return prior.offset();
  }

  /**
   * As {@link #subscribe(String, long, long)}; with {@code refetch}, the standby rewinds a diverged
   * tail: it resumes from {@code resumeFrom} and also takes the jobs of those ids as they are when
   * the engine reads them (absent ones as deleted), in their place in the stream. Until it applied
   * them it is not caught up.
   */
  boolean subscribe(String address, long resumeTerm, long resumeFrom, long[] refetch) {
    StandbyLink old = links.remove(address);
    if (old != null) {
      old.state = StandbyLink.State.GONE;
    }
    StandbyLink link = new StandbyLink(address, ++copies);
    links.put(address, link);
    boolean isOwnTerm = resumeTerm == term;
    boolean isPriorTerm = resumeTerm >= 0 && resumeTerm == prior.term();
    List<StandbyLink.Held> missing = null;
    if (resumeFrom >= 0 && (isOwnTerm || (isPriorTerm && resumeFrom <= prior.offset()))) {
      missing = backlog.from(resumeFrom);
    }
    if (missing != null) {
      link.state = refetch == null ? StandbyLink.State.LIVE : StandbyLink.State.COPYING;
      link.isStreaming = true;
      link.copyCursor = -1;
      for (StandbyLink.Held h : missing) {
        link.enqueue(new StandbyLink.Queued(Batch.LIVE, h.first(), h.last(), h.logged(), h.frames()));
      }
      log.info("replication: standby {} resumes from offset {} of term {} ({} KiB from the backlog, term {}){}",
          address, resumeFrom, resumeTerm, (logged - resumeFrom) >> 10, term,
          refetch == null ? "" : " and fetches again the " + refetch.length + " jobs its diverged tail touched");
      if (refetch != null) {
        rewinds++;
        link.refetch = refetch;
        link.copyCursor = 0;
        link.copyStartNanos = System.nanoTime();
      }
      pump(link);
      askSlice(link);
      recompute();
      return true;
    }
    if (isPriorTerm && resumeFrom > prior.offset()) {
      log.info("replication: standby {} applied term {} up to offset {}, past {} where this node took over: its "
          + "history diverged", address, resumeTerm, resumeFrom, prior.offset());
    } else if (isOwnTerm || isPriorTerm) {
      log.info("replication: standby {} at offset {} of term {} is beyond this node's backlog (offsets {} to {})",
          address, resumeFrom, resumeTerm, backlog.startsAt(), backlog.endsAt());
    }
    fullCopies++;
    log.info("replication: standby {} subscribed; copying the live jobs (term {})", address, term);
    link.copyStartNanos = System.nanoTime();
    link.enqueue(new StandbyLink.Queued(Batch.RESET, lastSequence, lastSequence, logged, Buffer.buffer()));
    pump(link);
    return false;
  }

  /**
   * Asks the engine for the copy's next slice once the standby has room for it: the slice comes
   * back through {@link #onCopySlice}, in its place among the changes.
   */
  private void askSlice(StandbyLink link) {
    if (link.state != StandbyLink.State.COPYING || link.isSliceAsked || link.copyCursor < 0 || isStopped
        || link.queuedBytes + link.inFlightBytes >= WINDOW_BYTES) {
      return;
    }
    link.isSliceAsked = true;
    String address = link.address;
    long copy = link.copy;
    int cursor = link.copyCursor;
    long[] refetch = link.refetch;
    engine.send(port -> {
      if (refetch != null) {
        port.copyJobs(address, copy, refetch, cursor, COPY_SLICE_BYTES);
      } else {
        port.copySlice(address, copy, cursor, COPY_SLICE_BYTES);
      }
    });
  }

  /**
   * A slice of a copy, read by the engine after every change this node has heard of so far and
   * before the next: from the first on, the standby also gets the changes, in this same order.
   */
  public void onCopySlice(CopySlice slice) {
    StandbyLink link = links.get(slice.standby());
    if (isStopped || link == null || link.copy != slice.copy() || link.state != StandbyLink.State.COPYING) {
      return;
    }
    link.isSliceAsked = false;
    link.isStreaming = true;
    int from = link.copyCursor;
    link.copyCursor = slice.nextCursor();
    link.copiedJobs += slice.jobs();
    if (link.refetch != null) {
      // A rewind: the ids of this slice not held here were framed as deletes (gone in this history).
      int to = slice.isLast() ? link.refetch.length : slice.nextCursor();
      link.refetchedGone += (to - from) - slice.jobs();
    }
    // Framed by the engine already, the high-water mark first.
    link.enqueue(new StandbyLink.Queued(slice.isLast() ? Batch.COPY_END : Batch.COPY, slice.sequence(),
        slice.sequence(), logged, Buffer.buffer(slice.frameBytes()).appendBytes(slice.frames(), 0, slice.frameBytes())));
    pump(link);
    askSlice(link);
  }

  /** What the engine logged in one turn: encoded once, queued for every standby the stream goes to. */
  public void onChanges(ChangeOutbox.Changes changes) {
    if (isStopped || changes.records().isEmpty()) {
      return;
    }
    long[] seq = changes.sequences();
    Buffer frames = Buffer.buffer(RecordFrames.encode(changes.records()));
    logged += frames.length();
    long first = seq[0];
    long last = seq[seq.length - 1];
    lastSequence = last;
    backlog.add(new StandbyLink.Held(first, last, logged, frames));
    List<StandbyLink> over = null;
    for (StandbyLink link : links.values()) {
      if (!link.isStreaming) {
        continue;
      }
      link.enqueue(new StandbyLink.Queued(Batch.LIVE, first, last, logged, frames));
      if (link.queuedBytes > MAX_QUEUED_BYTES) {
        over = over == null ? new ArrayList<>() : over;
        over.add(link);
      } else {
        pump(link);
      }
    }
    if (over != null) {
      over.forEach(link -> drop(link, "more than " + (MAX_QUEUED_BYTES >> 20) + " MiB waited for it"));
    }
    if (config.minAcks() == 0 || links.isEmpty()) {
      recompute();
    }
  }

  /**
   * Sends what waits for the standby, in order, while its window has room. Changes that waited
   * leave merged, up to {@link #SLICE_BYTES} a batch: group commit between the nodes.
   */
  private void pump(StandbyLink link) {
    int maxBatches = link.state == StandbyLink.State.LIVE ? LIVE_IN_FLIGHT : COPY_IN_FLIGHT;
    while (!link.queue.isEmpty() && link.state != StandbyLink.State.GONE && !isStopped
        && link.inFlightBatches < maxBatches && link.inFlightBytes < WINDOW_BYTES) {
      if (isCopy(link.queue.peek().kind())
          && !pace.maySend(System.nanoTime(), link.copyBatchesInFlight, link.queuedBytes)) {
        resumeCopiesAfterHold();
        return;
      }
      StandbyLink.Queued head = link.queue.poll();
      link.queuedBytes -= head.frames().length();
      if (head.kind() != Batch.LIVE || link.queue.isEmpty() || link.queue.peek().kind() != Batch.LIVE) {
        send(link, new Batch(head.kind(), term, head.first(), head.last(), head.logged(), head.frames()));
        continue;
      }
      Buffer merged = Buffer.buffer(SLICE_BYTES / 4).appendBuffer(head.frames());
      long last = head.last();
      long loggedThen = head.logged();
      while (!link.queue.isEmpty() && link.queue.peek().kind() == Batch.LIVE
          && merged.length() + link.queue.peek().frames().length() <= SLICE_BYTES) {
        StandbyLink.Queued next = link.queue.poll();
        link.queuedBytes -= next.frames().length();
        merged.appendBuffer(next.frames());
        last = next.last();
        loggedThen = next.logged();
      }
      send(link, new Batch(Batch.LIVE, term, head.first(), last, loggedThen, merged));
    }
  }

  /** Every few hundred milliseconds: heartbeats to idle standbys, and what their silence means for acks. */
  public void tick() {
    long now = System.nanoTime();
    for (StandbyLink link : links.values()) {
      if (link.state == StandbyLink.State.LIVE && link.unacked.isEmpty() && link.queue.isEmpty()
          && now - link.lastSentNanos > HEARTBEAT_NANOS) {
        request(link, new Batch(Batch.LIVE, term, link.acked, link.acked, logged, Buffer.buffer()), delivery, () -> {});
      }
    }
    recompute();
  }

  private static boolean isCopy(byte kind) {
    return kind != Batch.LIVE;
  }

  /**
   * Once the copies' hold ends, they send again (a live round trip without them may end it sooner).
   * A copy stopped only by its batches in flight goes on as they are acknowledged.
   */
  private void resumeCopiesAfterHold() {
    long now = System.nanoTime();
    if (paceTimer >= 0 || isStopped || !pace.isHolding(now)) {
      return;
    }
    long millis = Math.max(1, (pace.holdUntilNanos() - now + 999_999) / 1_000_000);
    paceTimer = vertx.setTimer(millis, id -> {
      paceTimer = -1;
      resumeCopies();
    });
  }

  private void resumeCopies() {
    if (isStopped) {
      return;
    }
    for (StandbyLink l : List.copyOf(links.values())) {
      if (l.state == StandbyLink.State.COPYING && !l.queue.isEmpty()) {
        pump(l);
        askSlice(l);
      }
    }
  }

  /** One batch of the window: counted in flight until the standby answers. */
  private void send(StandbyLink link, Batch batch) {
    int bytes = batch.frames().length();
    link.inFlightBatches++;
    link.inFlightBytes += bytes;
    link.peakInFlightBytes = Math.max(link.peakInFlightBytes, link.inFlightBytes);
    long sentNanos = System.nanoTime();
    boolean isCopy = isCopy(batch.kind());
    if (isCopy) {
      link.copyBatchesInFlight++;
      copyBatchesSent++;
    }
    // A round trip of a standby that follows, and whether copy traffic shared it: the copies' pace.
    boolean isFollowing = link.state == StandbyLink.State.LIVE;
    boolean copyWasOut = isFollowing && isCopyOut();
    long copiesSentBefore = copyBatchesSent;
    request(link, batch, batch.kind() == Batch.RESET ? resetDelivery : delivery, () -> {
      link.inFlightBatches--;
      link.inFlightBytes -= bytes;
      if (isCopy) {
        link.copyBatchesInFlight--;
      }
      boolean mayResumeCopies = false;
      switch (batch.kind()) {
        case Batch.LIVE -> {
          long now = System.nanoTime();
          link.acked = Math.max(link.acked, batch.last());
          if (isFollowing) {
            // A copying standby's changes wait behind its slices, and no client waits for them.
            ackNanos.accept(now - sentNanos);
            pace.onLiveAck(now, now - sentNanos, copyWasOut || copyBatchesSent != copiesSentBefore);
            mayResumeCopies = !pace.isHolding(now);
          }
        }
        case Batch.COPY_END -> copied(link, batch.first());
        default -> { }
      }
      pump(link);
      askSlice(link);
      recompute();
      if (mayResumeCopies) {
        resumeCopies();
      }
    });
  }

  /** Whether some standby has a copy batch in flight (one dropped meanwhile no longer counts). */
  private boolean isCopyOut() {
    for (StandbyLink l : links.values()) {
      if (l.copyBatchesInFlight > 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * The standby applied the copy's last slice: it holds every job as it was when that slice was
   * read, and every change logged before it, so it follows from there and counts toward minAcks.
   */
  private void copied(StandbyLink link, long sequence) {
    link.state = StandbyLink.State.LIVE;
    link.acked = Math.max(link.acked, sequence);
    if (link.refetch != null) {
      log.info("replication: standby {} rewound its diverged tail in {} ms ({} jobs fetched again, {} of them gone "
              + "here) and follows from sequence {}", link.address, (System.nanoTime() - link.copyStartNanos) / 1_000_000,
          link.refetch.length, link.refetchedGone, sequence);
      link.refetch = null;
      return;
    }
    log.info("replication: standby {} copied {} jobs in {} ms and follows from sequence {} (at most {} KiB in "
            + "flight and {} KiB waiting for it; copies held {} times so far for the standbys that follow)",
        link.address, link.copiedJobs, (System.nanoTime() - link.copyStartNanos) / 1_000_000, sequence,
        link.peakInFlightBytes >> 10, link.peakQueuedBytes >> 10, pace.holds());
  }

  private void request(StandbyLink link, Batch batch, DeliveryOptions options, Runnable onAck) {
    if (link.state == StandbyLink.State.GONE || isStopped) {
      return;
    }
    long sentNanos = System.nanoTime();
    link.lastSentNanos = sentNanos;
    link.unacked.add(sentNanos);
    vertx.eventBus().<Buffer>request(link.address, batch.encode(), options).onComplete(r -> {
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
      link.queue.clear();
      link.queuedBytes = 0;
      log.warn("replication: standby {} dropped ({}); it resumes or is copied again when it subscribes",
          link.address, why);
      recompute();
    }
  }

  /**
   * Tells the engine what it may acknowledge now: minAcks standbys' sequence, or, with too few
   * standbys, everything once the record holds that this primary goes on alone ("serve"); until
   * then changes wait, and they are refused while the record cannot be written, or with "refuse".
   */
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
      boolean serves = config.whenTooFewStandbys() == ReplicationConfig.WhenTooFewStandbys.SERVE;
      if (degraded != isDegradedLogged) {
        isDegradedLogged = degraded;
        if (degraded) {
          log.warn("replication: degraded: {} caught-up standbys, minAcks {}; {}", acked.length, minAcks,
              serves ? "changes are acknowledged on this node alone once the group's record holds that decision "
                  + "(whenTooFewStandbys: serve)"
                  : "changes are refused (whenTooFewStandbys: refuse)");
        } else {
          log.info("replication: no longer degraded: {} caught-up standbys, minAcks {}", acked.length, minAcks);
        }
      }
      if (!degraded) {
        degradedSinceNanos = 0;
        Arrays.sort(acked);
        acknowledged = acked[acked.length - minAcks];
        if (isAloneUpToKnown && acknowledged >= aloneUpTo) {
          alone.giveBack(now);
        }
      } else {
        if (degradedSinceNanos == 0) {
          degradedSinceNanos = now;
        }
        long held = acknowledgedSent < 0 ? 0 : acknowledgedSent == Long.MAX_VALUE ? aloneUpTo : acknowledgedSent;
        if (!serves) {
          acknowledged = held;
          accepts = false;
        } else if (alone.isRecorded()) {
          acknowledged = Long.MAX_VALUE;
        } else {
          acknowledged = held;
          // A standby that is merely slow, or one that subscribes to a new primary, gets an ack timeout's
          // grace before the primary asks to go on alone.
          boolean isWaiting = lastSequence > Math.max(held, floor) || alone.isRefused();
          if (isWaiting && now - degradedSinceNanos >= ackTimeoutNanos() && now - mayGoAloneFromNanos >= 0) {
            alone.goAlone(now);
          }
          accepts = !alone.isRefused();
        }
      }
    }
    acknowledged = Math.max(acknowledged, floor);
    if (acknowledged != acknowledgedSent) {
      long a = acknowledged;
      if (acknowledgedSent == Long.MAX_VALUE && a != Long.MAX_VALUE) {
        // What the engine logs until it hears this may still be acknowledged alone: it says where it stood.
        isAloneUpToKnown = false;
        engine.run(port -> {
          port.acknowledge(a);
          return port.lastSequence();
        }).onComplete(r -> {
          if (r.succeeded()) {
            aloneUpTo = Math.max(aloneUpTo, r.result());
            isAloneUpToKnown = true;
          } else {
            // Unknown where the engine stood: asked again at the next recompute.
            acknowledgedSent = Long.MAX_VALUE;
          }
          recompute();
        });
      } else {
        engine.send(port -> port.acknowledge(a));
      }
      acknowledgedSent = a;
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
