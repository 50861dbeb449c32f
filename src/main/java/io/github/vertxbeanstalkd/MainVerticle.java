package io.github.vertxbeanstalkd;

import io.github.vertxbeanstalkd.config.ConfigLoader;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/** The launcher's main verticle: reads the configuration, deploys the server, and wires SIGUSR1 to drain. */
public final class MainVerticle extends VerticleBase {
  private static final Logger log = LoggerFactory.getLogger(MainVerticle.class);

  @Override
  public Future<?> start() {
    return ConfigLoader.load(vertx, config())
        .onSuccess(c -> log.info("config: host={} port={} maxJobSize={} tcp={} eventBus={} binlog={}", c.host(),
            c.port(), c.maxJobSizeBytes(), c.isTcpEnabled() ? "on" : "off",
            c.eventBus().isEnabled() ? "'" + c.eventBus().address() + "'" : "off",
            c.binlog().isEnabled()
                ? c.binlog().dir() + " fsync=" + c.binlog().fsync() + " segmentSize=" + c.binlog().segmentSizeBytes()
                : "off (jobs in memory only)"))
        .compose(c -> BeanstalkServer.deploy(vertx, c).map(server -> {
          if (server.port() >= 0) {
            log.info("vertx-beanstalkd {} listening on {}:{} ({} transport)", Main.version(), c.host(), server.port(),
                vertx.isNativeTransportEnabled() ? "epoll" : "nio");
          } else {
            log.info("vertx-beanstalkd {} running without a TCP listener", Main.version());
          }
          handleDrainSignal(server);
          return server;
        }));
  }

  private static void handleDrainSignal(BeanstalkServer server) {
    try {
      // BEHAVIOURS.md 12: SIGUSR1 puts the server into drain mode.
      Signal.handle(new Signal("USR1"), sig -> server.drain());
    } catch (IllegalArgumentException unsupported) {
      log.warn("SIGUSR1 is not available here; drain mode only through BeanstalkServer.drain()");
    }
  }
}
