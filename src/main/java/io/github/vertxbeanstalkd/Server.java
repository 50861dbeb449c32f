package io.github.vertxbeanstalkd;

import io.github.vertxbeanstalkd.bus.EngineAddress;
import io.github.vertxbeanstalkd.bus.EngineRequest;
import io.github.vertxbeanstalkd.bus.LocalCodec;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.engine.QueueEngineVerticle;
import io.github.vertxbeanstalkd.engine.ServerInfo;
import io.github.vertxbeanstalkd.server.TcpServerVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** Deploys a whole server (one queue engine, one TCP front) on a Vert.x instance. */
public final class Server {
  private Server() {}

  /** Deploys the verticles and returns the TCP port actually bound. */
  public static Future<Integer> deploy(Vertx vertx, ServerConfig config) {
    LocalCodec.registerAll(vertx);
    TcpServerVerticle tcp = new TcpServerVerticle(config);
    return vertx.executeBlocking(ServerInfo::gather)
        .compose(info -> vertx.deployVerticle(new QueueEngineVerticle(info, config.maxJobSizeBytes(), config.binlog()),
            new DeploymentOptions()))
        .compose(id -> vertx.deployVerticle(tcp, new DeploymentOptions()))
        .map(id -> tcp.actualPort());
  }

  /** Puts the server on this Vert.x instance into drain mode, as SIGUSR1 does. */
  public static void drain(Vertx vertx) {
    vertx.eventBus().send(EngineAddress.REQUESTS, new EngineRequest.Drain());
  }
}
