package io.github.vertxbeanstalkd;

import io.github.vertxbeanstalkd.api.BusFrontVerticle;
import io.github.vertxbeanstalkd.bus.ConnectionRouting;
import io.github.vertxbeanstalkd.bus.EngineAddress;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.metrics.CommandDurations;
import io.github.vertxbeanstalkd.replication.Fronts;
import io.github.vertxbeanstalkd.tcp.TcpServerVerticle;
import io.github.vertxbeanstalkd.tcp.TlsCredentials;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * The fronts that serve the queue: the TCP and TLS listeners and the event-bus address. A server of
 * its own opens them all at start. A replicated node opens its listeners at start for good (every
 * node's port serves the queue, its connections routed to the primary), and the event-bus address
 * on each promotion, closed again when it steps down.
 */
final class ServingFronts implements Fronts {
  private final Vertx vertx;
  private final ServerConfig config;
  private final EngineAddress address;
  private final CommandDurations durations;
  private final TlsCredentials tls;
  private final ConnectionRouting routing;
  private TcpServerVerticle tcp;
  private String tcpId;
  private String busId;
  private boolean isTcpForGood;
  private boolean isOpen;

  ServingFronts(Vertx vertx, ServerConfig config, EngineAddress address, CommandDurations durations,
      TlsCredentials tls, ConnectionRouting routing) {
    this.vertx = vertx;
    this.config = config;
    this.address = address;
    this.durations = durations;
    this.tls = tls;
    this.routing = routing;
  }

  @Override
  public boolean hasTcp() {
    return config.isTcpEnabled() || tls != null || !config.listeners().isEmpty();
  }

  /**
   * Opens the TCP and TLS listeners for the server's whole life: {@link #close()} leaves them open.
   * Completes with their deployment's id (null without TCP), for the server to undeploy last.
   */
  Future<String> openListeners() {
    isTcpForGood = true;
    return hasTcp() ? deployListeners() : Future.succeededFuture();
  }

  private Future<String> deployListeners() {
    TcpServerVerticle listener = new TcpServerVerticle(config, address, durations, tls, routing);
    return vertx.deployVerticle(listener).onSuccess(id -> {
      tcpId = id;
      tcp = listener;
    });
  }

  @Override
  public Future<Void> open() {
    if (isOpen) {
      return Future.succeededFuture();
    }
    isOpen = true;
    Future<?> deployed = Future.succeededFuture();
    if (hasTcp() && tcpId == null) {
      deployed = deployed.compose(v -> deployListeners());
    }
    if (config.eventBus().isEnabled()) {
      deployed = deployed.compose(v -> vertx.deployVerticle(new BusFrontVerticle(config, address, durations)))
          .onSuccess(id -> busId = id);
    }
    return deployed.mapEmpty();
  }

  @Override
  public Future<Void> close() {
    isOpen = false;
    // In reverse order: the event-bus front, then the listeners.
    String bus = busId;
    busId = null;
    // Composed on a future of no context: called from a thread outside Vert.x (an embedder's
    // close), the result must not complete on a context that Vert.x's own close then stops.
    Future<Void> done = Future.succeededFuture();
    if (bus != null) {
      done = done.compose(v -> vertx.undeploy(bus));
    }
    if (!isTcpForGood && tcpId != null) {
      String listeners = tcpId;
      tcpId = null;
      tcp = null;
      done = done.compose(v -> vertx.undeploy(listeners));
    }
    return done;
  }

  /** The TCP listener now, or null (none configured, or not open). */
  TcpServerVerticle tcp() {
    return tcp;
  }
}
