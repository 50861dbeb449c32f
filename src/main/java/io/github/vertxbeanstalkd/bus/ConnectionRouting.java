package io.github.vertxbeanstalkd.bus;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** How a protocol front's connections reach the queue: one {@link SessionHost} per front instance. */
@FunctionalInterface
public interface ConnectionRouting {
  /** Every connection runs on this node's engine. */
  ConnectionRouting LOCAL = (vertx, local) -> Future.succeededFuture(local.connections());

  /**
   * The host of the front instance that calls it, on that instance's context.
   *
   * @param local the instance's client of this node's engine, already started
   */
  Future<SessionHost> start(Vertx vertx, EngineClient local);
}
