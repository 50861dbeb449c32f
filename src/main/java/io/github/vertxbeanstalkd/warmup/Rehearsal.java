package io.github.vertxbeanstalkd.warmup;

import io.github.vertxbeanstalkd.engine.ServerInfo;
import io.github.vertxbeanstalkd.persistence.BinlogConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The start-up warm-up, all before the real port opens: on throwaway servers ({@link RehearsalStage}:
 * an engine of their own, logging nowhere when the real one has a binlog, and a TCP front on an
 * ephemeral loopback port),
 * {@link RehearsalScript} runs every command over real sockets, then {@link RehearsalLoad} runs
 * rounds of load until the JIT compilers have settled.
 *
 * <p>Why: on a fresh JVM the first command loads a few hundred classes (Netty's read path and its
 * allocator's JFR events, the parser, the engine, records' generated methods) and runs
 * interpreted. Measured on a shared 2-core machine, it took 130 to 320 ms, and a client timing a
 * 1 s {@code reserve-with-timeout} on a new server (greenstalk's tests allow 50 ms) saw 1.13 to
 * 1.3 s; with the script, 2 ms and 1.003 s (src/test/scripts/first-reply.py). The load is for the
 * seconds after that: see {@link RehearsalLoad}.
 *
 * <p>It leaves no trace a client can see: the real engine never receives a rehearsal command, so
 * job ids, counters, tubes and the binlog are untouched, its command timers are in a registry of
 * their own, and the rehearsal's port is closed before the real one opens. A failed rehearsal only
 * costs the warm-up: the server starts anyway.
 */
public final class Rehearsal {
  private static final Logger log = LoggerFactory.getLogger(Rehearsal.class);
  /**
   * Measured: one round already brings the first put from about 240 ms to 2-3 ms, and more rounds
   * only add start-up time (30 rounds: 0.7 s more CPU); the second round runs the paths that only
   * a server which has done some work takes (freed slots, a tube made again).
   */
  static final int ROUNDS = 2;

  private Rehearsal() {}

  /**
   * Runs the rehearsal; always succeeds, logging a warning when the rehearsal itself failed.
   *
   * @param isTimed whether the real server times commands (metrics on): the rehearsal then times
   *     its own, in a registry nothing scrapes, so that the same code gets compiled
   * @param binlog the real server's binlog settings: with a binlog, the throwaway engines log too
   */
  public static Future<Void> run(Vertx vertx, ServerInfo info, boolean isTimed, BinlogConfig binlog) {
    long startNanos = System.nanoTime();
    Set<Integer> ownPorts = ConcurrentHashMap.newKeySet();
    RehearsalStage stages = new RehearsalStage(vertx, info, isTimed, ownPorts, binlog);
    // Blocking I/O and waits for deployments: on a worker thread, never on the event loop.
    return vertx.executeBlocking(() -> {
          int commands;
          try (RehearsalStage.Open stage = stages.open(true)) {
            commands = RehearsalScript.play(stage.host(), stage.port(), ROUNDS, ownPorts);
          }
          RehearsalLoad.Outcome load = RehearsalLoad.hasOptimisingCompiler()
              ? RehearsalLoad.play(stages, ownPorts, RehearsalLoad.MAX_NANOS)
              : RehearsalLoad.Outcome.SKIPPED;
          tidyHeap();
          return new Played(commands, load);
        })
        .onSuccess(played -> log.info("warm-up: {} commands, {}; {} ms in all", played.commands,
            played.load.describe(), (System.nanoTime() - startNanos) / 1_000_000))
        .<Void>mapEmpty()
        .recover(failure -> {
          log.warn("warm-up failed, starting without it: {}", failure.toString());
          return Future.succeededFuture();
        });
  }

  private record Played(int commands, RehearsalLoad.Outcome load) {}

  /**
   * A full collection once the rehearsal is gone: what start-up left on the heap is promoted to the
   * old generation now, instead of being copied by the first young collections under the first
   * clients' load (measured: three young pauses of 6-11 ms in the first 3 s), and the rehearsal's
   * garbage goes with it.
   */
  @SuppressWarnings("java:S1215")
  private static void tidyHeap() {
    System.gc();
  }
}
