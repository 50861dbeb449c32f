package io.github.vertxbeanstalkd.replication;

import io.vertx.core.Future;

/** The ways in that serve the queue (the TCP and TLS listeners, the event-bus address): open on a primary only. */
public interface Fronts {
  /** Opens them: this node is the primary now. */
  Future<Void> open();

  /** Closes them: this node is no longer the primary. */
  Future<Void> close();
}
