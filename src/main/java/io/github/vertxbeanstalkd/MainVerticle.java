package io.github.vertxbeanstalkd;

import io.github.vertxbeanstalkd.config.ConfigLoader;
import io.github.vertxbeanstalkd.config.ListenerConfig;
import io.github.vertxbeanstalkd.tcp.TlsCredentials;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * The launcher's main verticle: reads the configuration, deploys the server, wires SIGUSR1 to
 * drain, and SIGTERM and SIGINT to a graceful shutdown that exits with status 0.
 *
 * @see <a href="{@docRoot}/../spec/BEHAVIOURS.html">BEHAVIOURS.md</a>
 */
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
        .onSuccess(c -> logMemoryBudget(MemoryBudget.of(c.maxMemoryBytes())))
        .compose(c -> BeanstalkServer.deploy(vertx, c).map(server -> {
          // Before the lines that say the server listens: a SIGTERM sent on seeing them must find
          // the graceful shutdown (exit 0), not the JVM's default (exit 143).
          handleDrainSignal(server);
          handleStopSignals(server);
          if (server.port() >= 0) {
            log.info("vertx-beanstalkd {} listening on {} ({} transport)", Main.version(),
                ListenerConfig.tcp(c.host(), 0).describe(server.port()), vertx.isNativeTransportEnabled() ? "epoll" : "nio");
          } else if (server.tlsPort() < 0 && server.moreListening().isEmpty()) {
            log.info("vertx-beanstalkd {} running without a TCP listener", Main.version());
          } else {
            log.info("vertx-beanstalkd {} without a plain TCP listener", Main.version());
          }
          if (server.tlsPort() >= 0) {
            log.info("TLS ({}) listening on {}:{}, certificate {}, {}", String.join(", ", TlsCredentials.PROTOCOLS),
                c.tls().host(), server.tlsPort(), c.tls().cert(), c.tls().isClientCertificateRequired()
                    ? "client certificates required, signed by " + c.tls().clientCa()
                    : "no client certificates");
          }
          if (!server.moreListening().isEmpty()) {
            log.info("also listening on {}", String.join(", ", server.moreListening()));
          }
          if (server.httpPort() >= 0) {
            log.info("HTTP (metrics, health, admin page) on http://{}:{}/", c.http().host(), server.httpPort());
          }
          // Once the port is open: reading the JVM's arguments loads the management classes.
          logStartCache(StartCache.ofThisJvm());
          return server;
        }));
  }

  /** A cache that could not be used is worth a warning, never a failure: the server starts as fast as without one. */
  private static void logStartCache(StartCache cache) {
    if (cache == null) {
      log.info("start cache: none (Java {}; src/site/markdown/start-up.md)", Runtime.version().feature());
    } else if (cache.isInUse()) {
      log.info(cache.describe());
    } else {
      log.warn(cache.describe());
    }
  }

  private static void logMemoryBudget(MemoryBudget budget) {
    log.info(budget.describe());
    if (budget.isHeapUnbounded()) {
      // README, "Memory": without -Xmx the JVM takes a quarter of the machine as the heap's limit,
      // and direct memory as much again, so the budget says nothing a container can be sized by.
      log.warn("the heap's limit is a large share of this machine's memory (no -Xmx?): start with "
          + "@conf/jvm.options, or set -Xmx and -XX:MaxDirectMemorySize, to bound the process");
    }
  }

  /**
   * Replaces the JVM's own SIGTERM handling (run the shutdown hooks, exit 143): replies in flight
   * go out and the binlog is flushed first, then the process exits 0; a second signal, or the
   * grace period running out twice over, exits at once through the launcher's hook.
   */
  private static void handleStopSignals(BeanstalkServer server) {
    long graceMillis = server.config().shutdownGraceMillis();
    java.util.concurrent.atomic.AtomicBoolean isStopping = new java.util.concurrent.atomic.AtomicBoolean();
    for (String name : new String[] {"TERM", "INT"}) {
      try {
        Signal.handle(new Signal(name), sig -> {
          if (!isStopping.compareAndSet(false, true)) {
            log.warn("SIG{} again: stopping now, without waiting for the rest", name);
            // halt, not exit: exit would wait for the shutdown already under way.
            Runtime.getRuntime().halt(1);
            return;
          }
          log.info("SIG{}: shutting down gracefully (grace period {} ms)", name, graceMillis);
          server.shutdown(graceMillis).onComplete(r -> {
            if (r.failed()) {
              log.error("shutdown did not finish cleanly: {}", r.cause().getMessage());
            }
            exit(r.succeeded() ? 0 : 1);
          });
          // If the engine never answers, the process still ends.
          Thread watchdog = new Thread(() -> {
            try {
              Thread.sleep(2 * graceMillis + 5_000);
              log.error("shutdown took longer than twice the grace period; stopping now");
              Runtime.getRuntime().halt(1);
            } catch (InterruptedException ignored) {
              // Exiting anyway.
            }
          }, "shutdown-watchdog");
          watchdog.setDaemon(true);
          watchdog.start();
        });
      } catch (IllegalArgumentException unsupported) {
        log.warn("SIG{} cannot be handled here; the JVM's default shutdown applies", name);
      }
    }
  }

  /** Exits from a thread of its own: the launcher's shutdown hook closes Vert.x, which needs the event loops. */
  private static void exit(int status) {
    Thread t = new Thread(() -> System.exit(status), "exit");
    t.start();
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
