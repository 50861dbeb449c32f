package io.github.vertxbeanstalkd.warmup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.bench.CaseSpec;
import io.github.vertxbeanstalkd.bus.EngineAddress;
import io.github.vertxbeanstalkd.bus.LocalCodec;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.engine.QueueEngineVerticle;
import io.github.vertxbeanstalkd.engine.ServerInfo;
import io.github.vertxbeanstalkd.persistence.BinlogConfig;
import io.github.vertxbeanstalkd.persistence.FsyncPolicy;
import io.github.vertxbeanstalkd.server.TcpServerVerticle;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The start-up warm-up in process; {@link io.github.vertxbeanstalkd.WarmUpJarIT} checks the packaged server the same way. */
@ExtendWith(VertxExtension.class)
class RehearsalTest {
  /** Values that differ between two servers: id is random for each. */
  private static final Set<String> PER_SERVER = Set.of("id", "uptime", "rusage-utime", "rusage-stime");

  @Test
  void theScriptGetsTheRepliesItExpectsFromARealServer(Vertx vertx) throws Exception {
    BeanstalkServer server = await(BeanstalkServer.deploy(vertx, ServerConfig.forTests()));
    // It throws on the first reply it did not expect, which at start-up would only log a warning.
    assertEquals(2 * 38, RehearsalScript.play("127.0.0.1", server.port(), 2, ConcurrentHashMap.newKeySet()));
  }

  @Test
  void theMixTakesEveryCommandAndItsErrorsAndTheServerStillAnswers(Vertx vertx) throws Exception {
    BeanstalkServer server = await(BeanstalkServer.deploy(vertx, ServerConfig.forTests()));
    // It throws when a burst's end is not answered (a reply lost, a connection stuck).
    int commands = RehearsalMix.play("127.0.0.1", server.port(), ConcurrentHashMap.newKeySet(),
        ServerConfig.DEFAULT_MAX_JOB_SIZE, 300, 1);
    assertTrue(commands > 2_000, "commands: " + commands);
    try (TestClient client = TestClient.connect(server.port())) {
      Map<String, String> stats = client.stats("stats");
      // Every command word and the errors reached the engine, not only the common ones.
      for (String key : new String[] {"cmd-put", "cmd-peek", "cmd-peek-ready", "cmd-peek-delayed", "cmd-peek-buried",
          "cmd-reserve-with-timeout", "cmd-delete", "cmd-release", "cmd-use", "cmd-watch", "cmd-ignore", "cmd-bury",
          "cmd-kick", "cmd-touch", "cmd-stats", "cmd-stats-job", "cmd-stats-tube", "cmd-list-tubes",
          "cmd-list-tube-used", "cmd-list-tubes-watched", "cmd-pause-tube", "total-jobs"}) {
        assertTrue(Long.parseLong(stats.get(key)) > 0, key + " in " + stats);
      }
      assertTrue(Long.parseLong(stats.get("total-connections")) > 3, "no lane was reset and opened again");
      String inserted = client.send("put 0 0 60 1", "x").readLine();
      assertTrue(inserted.startsWith("INSERTED "), inserted);
    }
  }

  @Test
  void theLoadRunsItsRoundsOnThrowawayServersAndStopsAtItsDeadline(Vertx vertx) throws Exception {
    LocalCodec.registerAll(vertx);
    Set<Integer> own = ConcurrentHashMap.newKeySet();
    RehearsalStage stages = new RehearsalStage(vertx, ServerInfo.gather(), true, own, BinlogConfig.inMemory());
    long startNanos = System.nanoTime();
    // A short deadline: one round at least, whatever the compilers do.
    RehearsalLoad.Outcome outcome = RehearsalLoad.play(stages, own, TimeUnit.MILLISECONDS.toNanos(300));
    assertTrue(outcome.rounds().size() >= 1, outcome.describe());
    assertTrue(outcome.jobs() > 10_000, outcome.describe());
    assertTrue(System.nanoTime() - startNanos < TimeUnit.SECONDS.toNanos(30), outcome.describe());
    // Every connection was the rehearsal's own, and every throwaway server is gone again.
    assertTrue(own.size() > 60, "local ports admitted: " + own.size());
    assertEquals(0, vertx.deploymentIDs().size(), vertx.deploymentIDs().toString());
  }

  @Test
  void withABinlogTheThrowawayServersLogToNoDisk(Vertx vertx, @TempDir Path parent)
      throws Exception {
    LocalCodec.registerAll(vertx);
    Set<Integer> own = ConcurrentHashMap.newKeySet();
    Path configured = parent.resolve("binlog");
    // The smallest segments, so that a few hundred puts fill several and the log moves on.
    BinlogConfig real = new BinlogConfig(configured, new FsyncPolicy.Always(), BinlogConfig.MIN_SEGMENT_SIZE, false);
    RehearsalStage stages = new RehearsalStage(vertx, ServerInfo.gather(), false, own, real);
    try (RehearsalStage.Open stage = stages.open(true)) {
      assertTrue(stage.isLogged());
      // Under fsync always a put is answered once its record is durable: here, once the writer took it.
      Map<String, String> stats = statsAfterPuts(stage, own, 300, 100);
      assertTrue(Long.parseLong(stats.get("binlog-records-written")) >= 300, stats.toString());
      assertTrue(Long.parseLong(stats.get("binlog-current-index")) > 3, "segments filled: " + stats);
      // The segments went nowhere: the throwaway log made no directory, nor any file.
      assertFalse(Files.exists(RehearsalStage.NO_DIRECTORY), "the throwaway log created its directory");
    }
    try (RehearsalStage.Open deep = stages.open(false)) {
      assertFalse(deep.isLogged(), "a deep round's server runs in memory");
    }
    assertFalse(Files.exists(configured), "the real server's binlog directory is never touched");
  }

  @Test
  void theThrowawayLogFillsSegmentsFarSmallerThanTheDefault(Vertx vertx, @TempDir Path parent) throws Exception {
    LocalCodec.registerAll(vertx);
    Set<Integer> own = ConcurrentHashMap.newKeySet();
    BinlogConfig real = new BinlogConfig(parent.resolve("binlog"), new FsyncPolicy.Interval(50),
        BinlogConfig.DEFAULT_SEGMENT_SIZE, false);
    RehearsalStage stages = new RehearsalStage(vertx, ServerInfo.gather(), false, own, real);
    try (RehearsalStage.Open stage = stages.open(true)) {
      // 2 MB of bodies: a fifth of one default segment, eight of the rehearsal's.
      Map<String, String> stats = statsAfterPuts(stage, own, 2_000, 1_000);
      assertTrue(Long.parseLong(stats.get("binlog-current-index")) >= 8,
          "segments filled: " + stats.get("binlog-current-index"));
    }
  }

  /**
   * Puts {@code count} jobs of {@code bodyBytes} bytes into {@code stage} over a connection of the
   * rehearsal's own (its port in {@code own}), each answered INSERTED in order, then returns its stats.
   */
  private static Map<String, String> statsAfterPuts(RehearsalStage.Open stage, Set<Integer> own, int count,
      int bodyBytes) throws Exception {
    try (Socket socket = new Socket()) {
      socket.bind(new InetSocketAddress("127.0.0.1", 0));
      own.add(socket.getLocalPort());
      socket.connect(new InetSocketAddress(stage.host(), stage.port()), 5_000);
      socket.setSoTimeout(5_000);
      OutputStream out = socket.getOutputStream();
      BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
      byte[] put = ("put 0 0 60 " + bodyBytes + "\r\n" + "x".repeat(bodyBytes) + "\r\n")
          .getBytes(StandardCharsets.US_ASCII);
      for (int i = 1; i <= count; i++) {
        out.write(put);
        assertEquals("INSERTED " + i, in.readLine());
      }
      out.write("stats\r\n".getBytes(StandardCharsets.US_ASCII));
      return yamlMap(in);
    }
  }

  /** A stats reply: "OK n", then a YAML map of n bytes. */
  private static Map<String, String> yamlMap(BufferedReader in) throws Exception {
    String ok = in.readLine();
    assertTrue(ok.startsWith("OK "), ok);
    char[] doc = new char[Integer.parseInt(ok.substring(3)) + 2];
    for (int read = 0; read < doc.length; ) {
      read += in.read(doc, read, doc.length - read);
    }
    Map<String, String> map = new LinkedHashMap<>();
    for (String line : new String(doc).split("\n")) {
      int colon = line.indexOf(": ");
      if (colon > 0) {
        map.put(line.substring(0, colon), line.substring(colon + 2).trim());
      }
    }
    return map;
  }

  @Test
  void twoRoundsDrainABacklogPastTheStoresFirstBlocksTheOthersStaySmall() {
    // The deep rounds are there to take the store's growth paths (a ready heap past its first block
    // of 65,536 slots, an id index that doubles): a drain smaller than that would not.
    long deepRounds = IntStream.range(0, 20).filter(i -> drainJobs(i) > 65_536).count();
    assertEquals(RehearsalLoad.DEEP_ROUNDS, deepRounds);
    assertTrue(drainJobs(RehearsalLoad.FIRST_DEEP_ROUND) > 65_536);
    assertTrue(drainJobs(0) > 0 && drainJobs(0) < 10_000, "round 0 drains " + drainJobs(0));
    assertTrue(RehearsalLoad.FIRST_DEEP_ROUND + RehearsalLoad.DEEP_ROUNDS <= RehearsalLoad.MIN_ROUNDS,
        "the load may stop after MIN_ROUNDS rounds: the deep rounds come before that");
  }

  private static long drainJobs(int round) {
    return RehearsalLoad.casesOf(round).stream().filter(c -> c.mode() == CaseSpec.Mode.DRAIN)
        .mapToLong(CaseSpec::jobs).sum();
  }

  @Test
  void theRehearsalsListenerServesItsOwnConnectionsOnly(Vertx vertx) throws Exception {
    // Its ephemeral port may be one a client expects a real server on: a stranger must get nothing.
    LocalCodec.registerAll(vertx);
    EngineAddress address = EngineAddress.unique();
    ServerConfig stage = new ServerConfig("127.0.0.1", 0, ServerConfig.DEFAULT_MAX_JOB_SIZE);
    Set<Integer> own = ConcurrentHashMap.newKeySet();
    TcpServerVerticle tcp = new TcpServerVerticle(
        stage, address).admitting(remote -> own.contains(remote.port()));
    await(vertx.deployVerticle(new QueueEngineVerticle(address,
        ServerInfo.gather(), stage.maxJobSizeBytes(),
        BinlogConfig.inMemory())));
    await(vertx.deployVerticle(tcp));
    try (Socket stranger = new Socket("127.0.0.1", tcp.actualPort())) {
      stranger.setSoTimeout(5_000);
      stranger.getOutputStream().write("put 0 0 60 1\r\nx\r\n".getBytes(StandardCharsets.US_ASCII));
      assertEquals(-1, stranger.getInputStream().read(), "a connection that is not the rehearsal's got a reply");
    } catch (SocketException reset) {
      // Closed before the put was written: refused all the same.
    }
    assertEquals(2 * 38, RehearsalScript.play("127.0.0.1", tcp.actualPort(), 2, own));
  }

  @Test
  void aServerThatWarmedUpLooksFreshToItsFirstClient(Vertx vertx) {
    Map<String, String> warmed = firstLook(vertx, ServerConfig.forTests().withWarmUp(true));
    Map<String, String> fresh = firstLook(vertx, ServerConfig.forTests());
    assertEquals(fresh, warmed);
  }

  /** What the first client sees: the first put's id, stats, the tubes. */
  private static Map<String, String> firstLook(Vertx vertx, ServerConfig config) {
    BeanstalkServer server = await(BeanstalkServer.deploy(vertx, config));
    try (TestClient client = TestClient.connect(server.port())) {
      client.send("put 0 0 60 1", "x").expect("INSERTED 1");
      Map<String, String> seen = new LinkedHashMap<>(client.stats("stats"));
      seen.keySet().removeAll(PER_SERVER);
      client.stats("stats-tube default").forEach((k, v) -> seen.put("default." + k, v));
      client.send("list-tubes").expectDocument("---\n- default\n");
      return seen;
    } finally {
      await(server.close());
    }
  }

  private static <T> T await(Future<T> f) {
    try {
      // A deploy with the warm-up takes 14-20 s on this 2-core machine in a full suite, 27-29 s beside a CPU
      // hog (its deep round finishes at 6k jobs/s): the bound is for a hang, not for speed.
      return f.toCompletionStage().toCompletableFuture().get(90, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
