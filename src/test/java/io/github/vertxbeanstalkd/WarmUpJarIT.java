package io.github.vertxbeanstalkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.config.BinlogSection;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start-up warm-up ({@link io.github.vertxbeanstalkd.warmup.Rehearsal}) on the packaged server, started as a user starts it
 * ({@code java @conf/jvm.options -jar target/vertx-beanstalkd.jar}): it runs, the first command is
 * answered quickly, and nothing of it shows, not in stats, ids or tubes, nor in a replayed binlog.
 * The reference for "nothing shows" is a fresh in-process server without a warm-up.
 *
 * <p>Runs in the integration-test phase of {@code mvn verify}, once the jar exists.
 */
class WarmUpJarIT {
  private static final Path JAR = Path.of("target", "vertx-beanstalkd.jar");
  private static final Path JVM_OPTIONS = Path.of("conf", "jvm.options");
  private static final Pattern LISTENING = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");
  private static final Pattern WARMED_UP = Pattern.compile("warm-up: \\d+ commands, .*; \\d+ ms in all");
  private static final long START_MILLIS = 60_000;
  /** Generous for a shared 2-core machine: without the warm-up the first reply took 130 to 320 ms. */
  private static final long FIRST_REPLY_LIMIT_MILLIS = 200;
  /**
   * Values that differ between any two processes; max-memory-bytes follows the JVM's heap maximum
   * (the default direct-memory limit), and the jar runs with conf/jvm.options, the reference in the
   * test JVM without them.
   */
  private static final Set<String> PER_PROCESS = Set.of("pid", "id", "hostname", "uptime", "rusage-utime",
      "rusage-stime", "max-memory-bytes");

  @TempDir
  Path tmp;
  private Vertx vertx;
  private ChildJvm child;

  @BeforeEach
  void needsTheJar() {
    Assumptions.assumeTrue(Files.isRegularFile(JAR), "needs " + JAR + ": runs in mvn verify after package");
    vertx = Vertx.vertx();
  }

  @AfterEach
  void stop() throws Exception {
    if (child != null) {
      child.close();
    }
    await(vertx.close());
  }

  @Test
  void theFirstCommandIsAnsweredQuicklyAndTheWarmUpLeavesNoTrace() throws Exception {
    int port = startJar(new JsonObject().put("port", 0).put("http", new JsonObject().put("port", 0)));
    try (TestClient client = TestClient.connect(port)) {
      long start = System.nanoTime();
      client.send("put 0 0 60 1", "x").expect("INSERTED 1");
      long firstReplyMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      System.out.println("first reply after " + firstReplyMillis + " ms; " + warmUpLine());
      assertTrue(firstReplyMillis < FIRST_REPLY_LIMIT_MILLIS, "first reply after " + firstReplyMillis + " ms");
      assertEquals(reference(ServerConfig.forTests()), afterFirstPut(client));
    }
  }

  @Test
  void theWarmUpAfterAReplayNeitherWritesTheLogNorMovesIds() throws Exception {
    Path dir = tmp.resolve("binlog");
    JsonObject binlog = new JsonObject().put("dir", dir.toString());
    ServerConfig logged = ServerConfig.forTests().withBinlog(BinlogSection.fromJson(new JsonObject().put("binlog", binlog)));
    BeanstalkServer first = await(BeanstalkServer.deploy(vertx, logged));
    try (TestClient client = TestClient.connect(first.port())) {
      client.send("put 0 0 60 1", "a").expect("INSERTED 1");
      client.send("use other").expect("USING other");
      client.send("put 0 0 60 1", "b").expect("INSERTED 2");
      client.send("put 0 0 60 1", "c").expect("INSERTED 3");
      client.send("delete 2").expect("DELETED");
    }
    await(first.close());
    Path copy = tmp.resolve("copy");
    copyDirectory(dir, copy);

    int port = startJar(new JsonObject().put("port", 0).put("http", new JsonObject().put("port", 0))
        .put("binlog", binlog));
    try (TestClient client = TestClient.connect(port)) {
      Map<String, String> atStart = withoutPerProcess(client.stats("stats"));
      client.send("put 0 0 60 1", "d").expect("INSERTED 4");
      Map<String, String> afterPut = withoutPerProcess(client.stats("stats"));
      ServerConfig fromCopy = logged.withBinlog(BinlogSection.fromJson(
          new JsonObject().put("binlog", new JsonObject().put("dir", copy.toString()))));
      BeanstalkServer reference = await(BeanstalkServer.deploy(vertx, fromCopy));
      try (TestClient ref = TestClient.connect(reference.port())) {
        assertEquals(withoutPerProcess(ref.stats("stats")), atStart);
        ref.send("put 0 0 60 1", "d").expect("INSERTED 4");
        assertEquals(withoutPerProcess(ref.stats("stats")), afterPut);
      }
      await(reference.close());
    }
  }

  /** Starts the jar with {@code conf}, waits for the warm-up and the listener, returns the port. */
  private int startJar(JsonObject conf) throws IOException, InterruptedException {
    conf.put("tcp", new JsonObject().put("warmUp", true));
    child = ChildJvm.startJar(JVM_OPTIONS, JAR, List.of("-conf", conf.encode()), tmp.resolve("server.log"));
    int port = Integer.parseInt(child.await(LISTENING, START_MILLIS).group(1));
    warmUpLine();
    return port;
  }

  private String warmUpLine() throws InterruptedException {
    return child.await(WARMED_UP, START_MILLIS).group();
  }

  /** A fresh in-process server's stats after the same first put, with the same connection count. */
  private Map<String, String> reference(ServerConfig config) {
    BeanstalkServer server = await(BeanstalkServer.deploy(vertx, config));
    try (TestClient client = TestClient.connect(server.port())) {
      client.send("put 0 0 60 1", "x").expect("INSERTED 1");
      return afterFirstPut(client);
    } finally {
      await(server.close());
    }
  }

  private static Map<String, String> afterFirstPut(TestClient client) {
    Map<String, String> seen = withoutPerProcess(client.stats("stats"));
    client.send("list-tubes").expectDocument("---\n- default\n");
    seen.putAll(prefixed("default.", client.stats("stats-tube default")));
    return seen;
  }

  private static Map<String, String> withoutPerProcess(Map<String, String> stats) {
    Map<String, String> kept = new LinkedHashMap<>(stats);
    kept.keySet().removeAll(PER_PROCESS);
    return kept;
  }

  private static Map<String, String> prefixed(String prefix, Map<String, String> stats) {
    Map<String, String> out = new LinkedHashMap<>();
    stats.forEach((k, v) -> out.put(prefix + k, v));
    return out;
  }

  private static void copyDirectory(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Files.copy(p, to.resolve(from.relativize(p).toString()));
      }
    }
  }

  private static <T> T await(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
