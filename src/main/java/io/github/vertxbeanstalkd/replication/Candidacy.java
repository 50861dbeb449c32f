package io.github.vertxbeanstalkd.replication;

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
 */
final class Candidacy {
  private static final Logger log = LoggerFactory.getLogger(Candidacy.class);
  private static final long QUIET_BEFORE_COMPETING_NANOS = 1_000_000_000L;
  private static final long POSITION_QUERY_MILLIS = 300;
  /** How long a live member that does not answer a position query is waited for. */
  private static final long UNANSWERED_WAIT_NANOS = 2_000_000_000L;

  private final Vertx vertx;
  private final String group;
  private final Follower follower;
  private final GroupLock lock;
  /** Whether this node follows a primary now (set on the node's context). */
  private final BooleanSupplier isFollowing;
  /** Since when each member has not answered a position query (lock thread only). */
  private final Map<String, Long> silentSince = new HashMap<>();
  /** The other nodes' positions when this node last decided to compete, for the log. */
  private volatile String lastCompared = "";

  Candidacy(Vertx vertx, String group, Follower follower, GroupLock lock, BooleanSupplier isFollowing) {
    this.vertx = vertx;
    this.group = group;
    this.follower = follower;
    this.lock = lock;
    this.isFollowing = isFollowing;
  }

  /** The positions compared when this node last decided to compete, for the take-over's log line. */
  String lastCompared() {
    return lastCompared.isEmpty() ? " none" : lastCompared;
  }

  /** On the lock's thread (it blocks up to the position query's timeout). */
  boolean mayCompete() {
    long copied = follower.copiedTerm();
    if (copied < 0) {
      return follower.newestTerm() == 0 && !isFollowing.getAsBoolean();
    }
    if (System.nanoTime() - follower.lastHeardNanos() < QUIET_BEFORE_COMPETING_NANOS) {
      return false;
    }
    long applied = follower.applied();
    List<String> ids = lock.otherMemberIds();
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
      seen.append(' ').append(id).append(": term ").append(theirTerm).append(" sequence ").append(theirApplied)
          .append(';');
      if (theirTerm > copied || (theirTerm == copied && theirApplied > applied)) {
        log.info("replication: another standby applied more (term {}, sequence {} against this node's {}, {}): "
            + "it takes over", theirTerm, theirApplied, copied, applied);
        return false;
      }
    }
    lastCompared = seen.toString();
    return true;
  }
}
