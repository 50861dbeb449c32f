package io.github.vertxbeanstalkd.bus;

import io.vertx.core.Future;

/**
 * Where one protocol front's connections get their sessions: this node's engine, or (on a node of
 * a replication group) whichever node is the primary. Used on that front's own context only.
 */
public interface SessionHost {
  /** Opens a session counted as a connection; its replies reach {@code listener} in order. */
  ConnectionSession open(EngineClient.Listener listener);

  /** A connection over maxConnections was closed at once: counted by this node's engine. */
  void connectionRefused();

  /** The front stops: the sessions still open are its to close; this only lets go of what the host holds. */
  Future<Void> stop();
}
