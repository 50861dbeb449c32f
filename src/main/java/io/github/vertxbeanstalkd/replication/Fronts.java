package io.github.vertxbeanstalkd.replication;

import io.github.vertxbeanstalkd.replication.forwarding.Forwarding;
import io.vertx.core.Future;

/**
 * The ways in that only the primary serves: the event-bus address (a replicated node's TCP and TLS
 * listeners are open on every node, their connections routed to the primary by {@link Forwarding}).
 */
public interface Fronts {
  /** Opens them: this node is the primary now. */
  Future<Void> open();

  /** Closes them: this node is no longer the primary. */
  Future<Void> close();

  /** Whether the node has a TCP or TLS listener, whose connections a standby forwards. */
  boolean hasTcp();
}
