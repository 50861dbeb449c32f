package io.github.vertxbeanstalkd.http;

import io.github.vertxbeanstalkd.cluster.GroupState;
import io.github.vertxbeanstalkd.cluster.GroupStatus;
import io.vertx.core.json.JsonObject;

/**
 * What /healthz and /readyz say about this node's place in its replication group
 * (REPLICATION.md, "Roles"). A node that is not replicated gets nothing added.
 *
 * @see <a href="{@docRoot}/../spec/REPLICATION.html">REPLICATION.md</a>
 */
final class GroupHealth {
  private final GroupStatus status;

  /** @param status null when the node is not replicated */
  GroupHealth(GroupStatus status) {
    this.status = status;
  }

  /** Adds the role, the term, the fencing mode and the role's own fields to a /healthz answer. */
  JsonObject addTo(JsonObject healthz) {
    GroupState s = state();
    if (s == null) {
      return healthz;
    }
    healthz.put("role", s.role()).put("term", s.term());
    if (s.isPrimary()) {
      healthz.put("standbys", s.standbys()).put("degraded", s.isDegraded());
    } else {
      healthz.put("lagBytes", s.lagBytes());
    }
    if (s.waitingFor() != null) {
      healthz.put("waitingFor", s.waitingFor());
    }
    // REPLICATION.md: without three CP members two nodes may both believe they hold the lock.
    return healthz.put("fencing", s.isFencingSafe() ? "safe" : "unsafe");
  }

  /** Why this node's TCP port does not serve the queue, or null when it does or the node is not replicated. */
  String notServingReason() {
    GroupState s = state();
    if (s == null || s.servesProtocol()) {
      return null;
    }
    return switch (s.role()) {
      case GroupState.STANDBY -> "standby: no primary known to forward connections to";
      case GroupState.SYNCING -> "syncing: copying the primary's state; no primary known to forward connections to";
      case GroupState.PRIMARY -> "primary: not serving the queue yet (term " + s.term() + ")";
      default -> s.role() + ": the primary serves the queue";
    };
  }

  /**
   * Why this node's admin API may not change jobs or tubes, or null when it may (a primary, or a node
   * that is not replicated): a standby's jobs are its primary's.
   */
  String refusesChanges() {
    GroupState s = state();
    if (s == null || s.isPrimary()) {
      return null;
    }
    return "this node is a " + s.role() + " (term " + s.term() + "): its jobs are the primary's; change them on "
        + "the primary's admin page";
  }

  /** How a node that serves the queue serves it, for /readyz: nothing, or where its connections run. */
  String servingNote() {
    GroupState s = state();
    return s == null || s.isPrimary() ? "" : "; connections forwarded to the primary (term " + s.term() + ")";
  }

  /** The role, for a /readyz answer; nothing when the node is not replicated. */
  JsonObject addRoleTo(JsonObject readyz) {
    GroupState s = state();
    return s == null ? readyz : readyz.put("role", s.role());
  }

  private GroupState state() {
    return status == null ? null : status.state();
  }
}
