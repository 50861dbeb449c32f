package io.github.vertxbeanstalkd.warmup;

import io.github.vertxbeanstalkd.bus.EngineAddress;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.engine.QueueEngineVerticle;
import io.github.vertxbeanstalkd.engine.ServerInfo;
import io.github.vertxbeanstalkd.metrics.CommandDurations;
import io.github.vertxbeanstalkd.persistence.Binlog;
import io.github.vertxbeanstalkd.persistence.BinlogConfig;
import io.github.vertxbeanstalkd.server.TcpServerVerticle;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Throwaway servers for the {@link Rehearsal}, one at a time: each its own engine and a TCP front on
 * an ephemeral loopback port that serves only the rehearsal's connections. A new one for every
 * round of load, because the real server starts empty too: a fresh engine takes paths (its store's
 * first pages, its first tube, its tables' first growth) that an engine which has already done work
 * does not, and code compiled without them is thrown away the first time they run (measured: the
 * put path deoptimised and compiled again in the real server's first 0.7 s when every round ran on
 * one engine).
 *
 * <p>When the real server has a binlog, each engine but the deep rounds' has one too, with the same
 * fsync policy and small segments ({@link #SEGMENT_BYTES}), writing nowhere
 * ({@link Binlog#openWritingNowhere}: no directory is created, no file written, so a server killed
 * during its warm-up leaves nothing behind). An engine that logs takes other branches than one in
 * memory (a reply held until its record is durable, the writer thread's hand-offs, segments filled
 * and compacted), which were otherwise compiled under the first clients' load (measured, one connection, fsync 50, the first round
 * after the port opens: 82-99 us of CPU per put without, 61-78 with). No disk is touched, so the
 * rehearsal runs as fast as in memory even under {@code fsync always} (an earlier try with real
 * files waited for the disk: 2 rounds of load in the warm-up's 12 s).
 *
 * <p>Blocking: {@link #open(boolean)} and {@link Open#close()} wait for the deployments, so they are called
 * from a worker thread, never from an event loop.
 */
final class RehearsalStage {
  private static final String LOOPBACK = "127.0.0.1";
  private static final long DEPLOY_TIMEOUT_SECONDS = 30;
  /** A throwaway log's directory: a log that writes nowhere neither creates nor reads it. */
  static final Path NO_DIRECTORY = Path.of("vertx-beanstalkd-rehearsal-log-never-created");
  /**
   * A throwaway log's segments: small enough that every round fills several, so that moving to a new
   * segment, deleting unneeded ones and compaction run before the port opens. At the default 10 MiB
   * a round fills none, and the real log's first new segments threw the put path's compiled code away
   * (-XX:+LogCompilation, a lone server under put c=1 with fsync 50: 22 uncommon traps in
   * Binlog.isCompactionDue, SegmentLedger, JobBaseIndex and QueueEngine; none at the first segment
   * with this size).
   */
  static final long SEGMENT_BYTES = 256 * 1024;

  private final Vertx vertx;
  private final ServerInfo info;
  private final boolean isTimed;
  private final Set<Integer> ownPorts;
  /** The real server's binlog settings: a throwaway engine logs (nowhere) when the real one logs. */
  private final BinlogConfig binlog;

  /**
   * @param isTimed whether the fronts time their commands as the real server's do (metrics on), in
   *     a registry of their own
   * @param ownPorts the local ports of the rehearsal's connections: only these are served
   * @param binlog the real server's binlog settings
   */
  RehearsalStage(Vertx vertx, ServerInfo info, boolean isTimed, Set<Integer> ownPorts, BinlogConfig binlog) {
    this.vertx = vertx;
    this.info = info;
    this.isTimed = isTimed;
    this.ownPorts = ownPorts;
    this.binlog = binlog;
  }

  /** A throwaway server, deployed; closing it undeploys it. */
  final class Open implements AutoCloseable {
    private final List<String> ids = new ArrayList<>();
    private TcpServerVerticle tcp;
    private boolean isLogged;

    String host() {
      return LOOPBACK;
    }

    int port() {
      return tcp.actualPort();
    }

    /** Whether the engine logs (nowhere). */
    boolean isLogged() {
      return isLogged;
    }

    /** Undeploys in reverse order: the TCP front stops before the engine it feeds. */
    @Override
    public void close() throws Exception {
      Future<Void> done = Future.succeededFuture();
      for (int i = ids.size() - 1; i >= 0; i--) {
        String id = ids.get(i);
        done = done.compose(v -> vertx.undeploy(id));
      }
      await(done);
    }
  }

  /**
   * @param isLogged whether the engine logs (nowhere) when the real server has a binlog: the load's
   *     deep rounds run in memory, as a logged drain of 100,000 jobs takes twice as long and would
   *     double the start-up, and the store's growth paths they are there for are the same either way
   */
  Open open(boolean isLogged) throws Exception {
    EngineAddress address = EngineAddress.unique();
    ServerConfig stage = new ServerConfig(LOOPBACK, 0, ServerConfig.DEFAULT_MAX_JOB_SIZE);
    Open open = new Open();
    // Its listener takes an ephemeral port, which may be the port a client expects a server on
    // (a restarted node's own port, in the ephemeral range, free until the real listener opens):
    // it serves only the rehearsal's own connections and closes any other at once.
    open.tcp = new TcpServerVerticle(stage, address, isTimed ? CommandDurations.unscraped() : CommandDurations.NONE)
        .admitting(remote -> ownPorts.contains(remote.port()));
    open.isLogged = isLogged && binlog.isEnabled();
    BinlogConfig log = open.isLogged
        ? new BinlogConfig(NO_DIRECTORY, binlog.fsync(), Math.min(binlog.segmentSizeBytes(), SEGMENT_BYTES), false)
        : BinlogConfig.inMemory();
    QueueEngineVerticle engine =
        new QueueEngineVerticle(address, info, stage.maxJobSizeBytes(), log).writingLogNowhere().withRehearsalPages();
    try {
      open.ids.add(await(vertx.deployVerticle(engine)));
      open.ids.add(await(vertx.deployVerticle(open.tcp)));
    } catch (Exception e) {
      open.close();
      throw e;
    }
    return open;
  }

  private static <T> T await(Future<T> future) throws Exception {
    try {
      return future.toCompletionStage().toCompletableFuture().get(DEPLOY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    } catch (TimeoutException e) {
      throw new IllegalStateException("warm-up: a throwaway server took over " + DEPLOY_TIMEOUT_SECONDS
          + " s to deploy or undeploy", e);
    }
  }
}
