package io.github.vertxbeanstalkd.warmup;

import io.github.vertxbeanstalkd.bus.EngineAddress;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.engine.QueueEngineVerticle;
import io.github.vertxbeanstalkd.engine.ServerInfo;
import io.github.vertxbeanstalkd.persistence.BinlogConfig;
import io.github.vertxbeanstalkd.server.TcpServerVerticle;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The start-up warm-up: a throwaway server (its own engine, in memory, and a TCP front on an
 * ephemeral loopback port) that {@link RehearsalScript} puts through every command over real
 * sockets, then undeploys, all before the real port opens.
 *
 * <p>Why: on a fresh JVM the first command loads a few hundred classes (Netty's read path and its
 * allocator's JFR events, the parser, the engine, records' generated methods) and runs
 * interpreted. Measured on a shared 2-core machine, it took 130 to 320 ms, and a client timing a
 * 1 s {@code reserve-with-timeout} on a new server (greenstalk's tests allow 50 ms) saw 1.13 to
 * 1.3 s; with the rehearsal, 2 ms and 1.003 s (src/test/scripts/first-reply.py).
 *
 * <p>It leaves no trace a client can see: the real engine never receives a rehearsal command, so
 * job ids, counters, tubes and the binlog are untouched, and the rehearsal's port is closed before
 * the real one opens. A failed rehearsal only costs the warm-up: the server starts anyway.
 */
public final class Rehearsal {
  private static final Logger log = LoggerFactory.getLogger(Rehearsal.class);
  private static final String LOOPBACK = "127.0.0.1";
  /**
   * Measured: one round already brings the first put from about 240 ms to 2-3 ms, and more rounds
   * only add start-up time (30 rounds: 0.7 s more CPU); the second round runs the paths that only
   * a server which has done some work takes (freed slots, a tube made again).
   */
  static final int ROUNDS = 2;

  private Rehearsal() {}

  /** Runs the rehearsal; always succeeds, logging a warning when the rehearsal itself failed. */
  public static Future<Void> run(Vertx vertx, ServerInfo info) {
    long startNanos = System.nanoTime();
    EngineAddress address = EngineAddress.unique();
    ServerConfig stage = new ServerConfig(LOOPBACK, 0, ServerConfig.DEFAULT_MAX_JOB_SIZE);
    // Its listener takes an ephemeral port, which may be the port a client expects a server on
    // (a restarted node's own port, in the ephemeral range, free until the real listener opens):
    // it serves only the rehearsal's own connections and closes any other at once.
    java.util.Set<Integer> ownPorts = java.util.concurrent.ConcurrentHashMap.newKeySet();
    TcpServerVerticle tcp = new TcpServerVerticle(stage, address).admitting(remote -> ownPorts.contains(remote.port()));
    List<String> ids = new ArrayList<>();
    QueueEngineVerticle engine = new QueueEngineVerticle(address, info, stage.maxJobSizeBytes(), BinlogConfig.inMemory());
    return vertx.deployVerticle(engine)
        .onSuccess(ids::add)
        .compose(v -> vertx.deployVerticle(tcp))
        .onSuccess(ids::add)
        .compose(v -> vertx.executeBlocking(() -> RehearsalScript.play(LOOPBACK, tcp.actualPort(), ROUNDS, ownPorts)))
        .eventually(() -> undeploy(vertx, ids))
        .onSuccess(commands -> log.info("warm-up: {} commands in {} ms", commands,
            (System.nanoTime() - startNanos) / 1_000_000))
        .<Void>mapEmpty()
        .recover(failure -> {
          log.warn("warm-up failed, starting without it: {}", failure.toString());
          return Future.succeededFuture();
        });
  }

  /** Undeploys in reverse order: the TCP front stops before the engine it feeds. */
  private static Future<Void> undeploy(Vertx vertx, List<String> ids) {
    Future<Void> done = Future.succeededFuture();
    for (int i = ids.size() - 1; i >= 0; i--) {
      String id = ids.get(i);
      done = done.compose(v -> vertx.undeploy(id));
    }
    return done;
  }
}
