package io.github.vertxbeanstalkd;

import io.github.vertxbeanstalkd.api.BusFrontVerticle;
import io.github.vertxbeanstalkd.bus.EngineAddress;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.metrics.CommandDurations;
import io.github.vertxbeanstalkd.replication.Fronts;
import io.github.vertxbeanstalkd.server.TcpServerVerticle;
import io.github.vertxbeanstalkd.server.TlsCredentials;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;

/**
 * The fronts that serve the queue, the TCP and TLS listeners and the event-bus address, deployed
 * together: at start on a server of its own, and on each promotion of a replicated node (closed
 * again when it steps down).
 */
final class ServingFronts implements Fronts {
  private final Vertx vertx;
  private final ServerConfig config;
  private final EngineAddress address;
  private final CommandDurations durations;
  private final TlsCredentials tls;
  private final List<String> ids = new ArrayList<>();
  private TcpServerVerticle tcp;
  private boolean isOpen;

  ServingFronts(Vertx vertx, ServerConfig config, EngineAddress address, CommandDurations durations,
      TlsCredentials tls) {
    this.vertx = vertx;
    this.config = config;
    this.address = address;
    this.durations = durations;
    this.tls = tls;
  }

  boolean hasTcp() {
    return config.isTcpEnabled() || tls != null;
  }

  @Override
  public Future<Void> open() {
    if (isOpen) {
      return Future.succeededFuture();
    }
    isOpen = true;
    Future<?> deployed = Future.succeededFuture();
    if (hasTcp()) {
      TcpServerVerticle listener = new TcpServerVerticle(config, address, durations, tls);
      deployed = deployed.compose(v -> vertx.deployVerticle(listener)).onSuccess(id -> {
        ids.add(id);
        tcp = listener;
      });
    }
    if (config.eventBus().isEnabled()) {
      deployed = deployed.compose(v -> vertx.deployVerticle(new BusFrontVerticle(config, address, durations)))
          .onSuccess(ids::add);
    }
    return deployed.mapEmpty();
  }

  @Override
  public Future<Void> close() {
    isOpen = false;
    tcp = null;
    Future<Void> done = Future.succeededFuture();
    // In reverse order: the event-bus front, then the listeners.
    for (int i = ids.size() - 1; i >= 0; i--) {
      String id = ids.get(i);
      done = done.compose(v -> vertx.undeploy(id));
    }
    ids.clear();
    return done;
  }

  /** The TCP listener now, or null (none configured, or not the primary). */
  TcpServerVerticle tcp() {
    return tcp;
  }
}
