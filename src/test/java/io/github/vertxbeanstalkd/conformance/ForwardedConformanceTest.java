package io.github.vertxbeanstalkd.conformance;

import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.metrics.CommandDurations;
import io.github.vertxbeanstalkd.replication.forwarding.ForwardedSessionsVerticle;
import io.github.vertxbeanstalkd.replication.forwarding.Forwarding;
import io.github.vertxbeanstalkd.replication.forwarding.PrimaryRoute;
import io.github.vertxbeanstalkd.tcp.TcpServerVerticle;
import io.vertx.core.Vertx;
import java.util.UUID;

/**
 * The recorded conversations of beanstalkd 1.12, byte for byte, through a standby's TCP front
 * (REPLICATION.md, "Every node serves the protocol"): the clients connect to a listener whose
 * connections are forwarded, as the forwarding wire's frames, to a primary's forwarding address,
 * where each runs as a session of the primary's engine. Here both ends share one Vert.x, so the
 * frames travel the local event bus; {@code cluster.ForwardingTest} crosses JVMs.
 */
class ForwardedConformanceTest extends ConformanceTest {
  @Override
  Served serve(Vertx vertx, ServerConfig config) throws Exception {
    BeanstalkServer primary = await(BeanstalkServer.deploy(vertx, config));
    String group = "conformance-" + UUID.randomUUID();
    long term = 1;
    String address = Forwarding.address(group, term);
    String receiver = await(vertx.deployVerticle(new ForwardedSessionsVerticle(primary.engineAddress(), address)));
    PrimaryRoute route = new PrimaryRoute();
    route.set(new PrimaryRoute.Primary(term, "primary", address));
    // The standby's front has an engine client of its own; here it is the primary's engine, which
    // it uses only to count connections refused over maxConnections.
    TcpServerVerticle standby = new TcpServerVerticle(config, primary.engineAddress(), CommandDurations.NONE, null,
        new Forwarding(route, group));
    String standbyId = await(vertx.deployVerticle(standby));
    return new Served() {
      public int port() {
        return standby.actualPort();
      }

      public void drain() {
        primary.drain().toCompletionStage().toCompletableFuture().join();
      }

      public void close() throws Exception {
        await(vertx.undeploy(standbyId));
        await(vertx.undeploy(receiver));
        await(primary.close());
      }
    };
  }
}
