package io.github.vertxbeanstalkd.replication.election;

import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this node may take over without losing acknowledged changes (asked by the group's lock,
 * on its own thread, before each try). At a group's first start anyone may; after that only a
 * standby with a complete copy, once the primary has been silent for a while (a live primary
 * heartbeats every 300 ms), and only while no other live node answers that it applied more of the
 * same primary's stream. A standby acknowledges a batch only once it applied it, so whatever a
 * client was told is held by a live node that answers with a position at least as far; the
 * standby that acknowledged the last changes wins.
 *
 * <p>The primary whose stream this node followed is not asked: the standbys acknowledged all it
 * told its clients (with minAcks 1 or more), so it holds nothing they do not. Another standby that
 * does not answer is waited for as long as it stays in the cluster's view (a paused one leaves it
 * after Hazelcast's heartbeat timeout), up to {@link #UNANSWERED_WAIT_NANOS}: under load a live
 * standby that acknowledged the last changes may answer late, and going on without it after 2 s
 * lost them (a SIGSTOP run: ids issued twice, deleted jobs back).
 *
 * <p>While the group's record says that the primary of a term acknowledged changes alone, no
 * standby holds them: only the node that led that term, still holding what it led, may compete
 * (REPLICATION.md "What is promised").
 *
 * @see <a href="{@docRoot}/../spec/REPLICATION.html">REPLICATION.md</a>
 */
public final class Candidacy {
  private static final Logger log = LoggerFactory.getLogger(Candidacy.class);
  private static final long QUIET_BEFORE_COMPETING_NANOS = 1_000_000_000L;
  private static final long POSITION_QUERY_MILLIS = 300;
  /**
   * How long a member in the view that does not answer a position query is waited for: longer
   * than the cluster's heartbeat timeout (5 s), so that only one that heartbeats but never answers
   * (a stuck node) is at last gone on without.
   */
  static final long UNANSWERED_WAIT_NANOS = 15_000_000_000L;

  private final Vertx vertx;
  private final String group;
  private final Stream follower;
  private final GroupLock lock;
  /** Whether this node follows a primary now (set on the node's context). */
  private final BooleanSupplier isFollowing;
  /** The term this node led last, whose changes it still holds; -1: none. */
  private final java.util.function.LongSupplier ledTerm;
  /** The term last found recorded alone, so that the log says so once. */
  private long loggedAloneTerm = -1;
  /** Since when each member has not answered a position query (lock thread only). */
  private final Map<String, Long> silentSince = new HashMap<>();
  /** The other nodes' positions when this node last decided to compete, for the log. */
  private volatile String lastCompared = "";

  /** What this node holds of the primary's stream (its follower). */
  public interface Stream {
    /** The term whose copy this node holds complete; -1 while it holds none. */
    long copiedTerm();

    /** The newest term this node has seen. */
    long newestTerm();

    /** When this node last heard from the primary it follows (System.nanoTime). */
    long lastHeardNanos();

    /** How far this node applied the stream of {@link #copiedTerm()}: an offset in its frames. */
    long applied();

    /** The Vert.x node id of the primary this node followed last; null before it did. */
    String followedNode();
  }

  public Candidacy(Vertx vertx, String group, Stream follower, GroupLock lock, BooleanSupplier isFollowing,
      java.util.function.LongSupplier ledTerm) {
    this.vertx = vertx;
    this.ledTerm = ledTerm;
    this.group = group;
    this.follower = follower;
    this.lock = lock;
    this.isFollowing = isFollowing;
  }

  /** The positions compared when this node last decided to compete, for the take-over's log line. */
  public String lastCompared() {
    return lastCompared.isEmpty() ? " none" : lastCompared;
  }

  /** On the lock's thread (it blocks up to the position query's timeout). */
  public boolean mayCompete() {
    long led = ledTerm.getAsLong();
    if (led >= 0 && !isFollowing.getAsBoolean() && aloneTerm() == led) {
      lastCompared = " none: this node led term " + led + ", which acknowledged changes alone;";
      return true;
    }
    long copied = follower.copiedTerm();
    if (copied < 0) {
      return follower.newestTerm() == 0 && !isFollowing.getAsBoolean() && aloneTerm() == -1;
    }
    if (System.nanoTime() - follower.lastHeardNanos() < QUIET_BEFORE_COMPETING_NANOS) {
      return false;
    }
    long alone = aloneTerm();
    if (alone >= 0 && alone < copied) {
      // The record names a term older than the one whose stream this node holds complete, which
      // carries all that term acknowledged alone: nothing is held back (GroupRecords#claim).
      if (alone != loggedAloneTerm) {
        loggedAloneTerm = alone;
        log.info("replication: the group's record says the primary of term {} acknowledged changes alone; this "
            + "node holds the stream of term {}, which carries them", alone, copied);
      }
      alone = -1;
    }
    if (alone != -1) {
      if (alone >= 0 && alone != loggedAloneTerm) {
        loggedAloneTerm = alone;
        log.warn("replication: the primary of term {} acknowledged changes alone, which this node does not hold: "
            + "it does not take over (only that node may)", alone);
      }
      return false;
    }
    long applied = follower.applied();
    List<String> ids = new ArrayList<>(lock.otherMemberIds());
    String formerPrimary = follower.followedNode();
    if (formerPrimary != null) {
      ids.remove(formerPrimary);
    }
    silentSince.keySet().retainAll(ids);
    List<CompletableFuture<Message<JsonObject>>> answers = new ArrayList<>();
    for (String id : ids) {
      answers.add(vertx.eventBus().<JsonObject>request(Addresses.of(group, id).position(), new JsonObject(),
          new DeliveryOptions().setSendTimeout(POSITION_QUERY_MILLIS)).toCompletionStage().toCompletableFuture());
    }
    long now = System.nanoTime();
    StringBuilder seen = new StringBuilder();
    for (int i = 0; i < ids.size(); i++) {
      String id = ids.get(i);
      JsonObject p;
      try {
        p = answers.get(i).join().body();
      } catch (RuntimeException e) {
        if (e.getCause() instanceof ReplyException re && re.failureType() == ReplyFailure.NO_HANDLERS) {
          continue; // not a node of this group (an app's Vert.x), or one whose follower is not up
        }
        // A live member that does not answer may hold what a client was told: wait for it a while,
        // then go on without it (it may be paused, and then it is no better a candidate).
        long since = silentSince.computeIfAbsent(id, k -> now);
        if (now - since < UNANSWERED_WAIT_NANOS) {
          return false;
        }
        seen.append(' ').append(id).append(": no answer;");
        continue;
      }
      silentSince.remove(id);
      long theirTerm = p.getLong("term", -1L);
      long theirApplied = p.getLong("applied", 0L);
      seen.append(' ').append(id).append(": term ").append(theirTerm).append(" offset ").append(theirApplied)
          .append(';');
      if (theirTerm > copied || (theirTerm == copied && theirApplied > applied)) {
        log.info("replication: another standby applied more (term {}, offset {} against this node's {}, {}): "
            + "it takes over", theirTerm, theirApplied, copied, applied);
        return false;
      }
    }
    lastCompared = seen.toString();
    return true;
  }

  /** The term the record says went on alone, -1 for none, or -2 when it cannot be read. */
  private long aloneTerm() {
    try {
      return lock.aloneTerm();
    } catch (RuntimeException e) {
      log.debug("replication: the group's record cannot be read: {}", e.toString());
      return -2;
    }
  }
}
