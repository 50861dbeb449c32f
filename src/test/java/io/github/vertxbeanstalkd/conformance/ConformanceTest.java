package io.github.vertxbeanstalkd.conformance;

import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

/**
 * Byte-exact differential conformance: replays the conversations recorded from beanstalkd 1.12
 * (src/test/resources/conformance, format in {@link CaseFile}) against our real server, deployed
 * fresh for every case on an ephemeral port. beanstalkd is not needed here; re-record with
 * {@code python3 src/test/conformance-recorder/record.py}.
 *
 * <p>Most of a case's time is spent waiting (for stray replies, for protocol deadlines), so the
 * cases run {@link #PARALLEL_SERVERS} at a time, each server on its own Vert.x instance (the
 * engine listens on a fixed event-bus address, so one server per instance); each dynamic test
 * then reports its own case's outcome. {@code -Dconformance.parallel=1} runs them one by one.
 * {@link ForwardedConformanceTest} replays them through a forwarding TCP front instead.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConformanceTest {
  private static final String RESOURCE_DIR = "/conformance";
  private static final int PARALLEL_SERVERS = Integer.getInteger("conformance.parallel", 4);
  private static final long DEPLOY_SECONDS = 10;
  private static final long CASE_SECONDS = 60;

  /** The server one case runs against. */
  interface Served {
    int port();

    /** Drain mode, as SIGUSR1. */
    void drain();

    void close() throws Exception;
  }

  private final List<Vertx> instances = new ArrayList<>();
  private ExecutorService workers;

  @AfterAll
  void closeVertx() throws Exception {
    if (workers != null) {
      workers.shutdownNow();
    }
    for (Vertx vertx : instances) {
      vertx.close().toCompletionStage().toCompletableFuture().get(DEPLOY_SECONDS, TimeUnit.SECONDS);
    }
  }

  @TestFactory
  Stream<DynamicNode> recordedCases() throws IOException, URISyntaxException {
    Map<String, List<ConformanceCase>> byFile = loadCases();
    Map<ConformanceCase, CompletableFuture<Void>> outcomes = startAll(byFile);
    List<DynamicNode> containers = new ArrayList<>();
    byFile.forEach((file, cases) -> {
      List<DynamicNode> tests = new ArrayList<>();
      for (ConformanceCase c : cases) {
        URI source = URI.create("classpath:" + RESOURCE_DIR + "/" + file + "?line=" + c.line());
        if (c.quirkNotFollowed() != null) {
          tests.add(DynamicTest.dynamicTest(c.name(), source,
              () -> Assumptions.abort("BEHAVIOURS.md quirk not followed: " + c.quirkNotFollowed())));
        } else {
          tests.add(DynamicTest.dynamicTest(c.name(), source, () -> awaitOutcome(outcomes.get(c))));
        }
      }
      containers.add(DynamicContainer.dynamicContainer(file, tests));
    });
    return containers.stream();
  }

  private static Map<String, List<ConformanceCase>> loadCases() throws IOException, URISyntaxException {
    Path dir = Path.of(ConformanceTest.class.getResource(RESOURCE_DIR).toURI());
    List<Path> files;
    try (Stream<Path> listing = Files.list(dir)) {
      files = listing.filter(p -> p.toString().endsWith(".cases")).sorted().toList();
    }
    Set<String> names = new HashSet<>();
    Map<String, List<ConformanceCase>> byFile = new LinkedHashMap<>();
    for (Path file : files) {
      List<ConformanceCase> cases = CaseFile.load(file);
      for (ConformanceCase c : cases) {
        if (!names.add(c.name())) {
          throw new IllegalStateException("duplicate case name " + c.name() + " in " + file);
        }
      }
      byFile.put(file.getFileName().toString(), cases);
    }
    return byFile;
  }

  /** Starts every case on the worker pool, the ones that sleep longest first. */
  private Map<ConformanceCase, CompletableFuture<Void>> startAll(Map<String, List<ConformanceCase>> byFile) {
    BlockingQueue<Vertx> pool = new LinkedBlockingQueue<>();
    for (int i = 0; i < PARALLEL_SERVERS; i++) {
      Vertx vertx = Vertx.vertx();
      instances.add(vertx);
      pool.add(vertx);
    }
    workers = Executors.newFixedThreadPool(PARALLEL_SERVERS);
    List<ConformanceCase> all = byFile.values().stream().flatMap(List::stream)
        .filter(c -> c.quirkNotFollowed() == null)
        .sorted(Comparator.comparingDouble(ConformanceTest::sleepSeconds).reversed())
        .toList();
    Map<ConformanceCase, CompletableFuture<Void>> outcomes = new LinkedHashMap<>();
    for (ConformanceCase c : all) {
      outcomes.put(c, CompletableFuture.runAsync(() -> {
        try {
          Vertx vertx = pool.take();
          try {
            replay(vertx, c);
          } finally {
            pool.add(vertx);
          }
        } catch (Exception e) {
          throw new java.util.concurrent.CompletionException(e);
        }
      }, workers));
    }
    return outcomes;
  }

  private static double sleepSeconds(ConformanceCase c) {
    return c.steps().stream().mapToDouble(ConformanceCase.Step::sleepSeconds).sum();
  }

  private static void awaitOutcome(CompletableFuture<Void> outcome) throws Throwable {
    try {
      outcome.get(CASE_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof java.util.concurrent.CompletionException ce && ce.getCause() != null
          ? ce.getCause() : e.getCause();
    }
  }

  private void replay(Vertx vertx, ConformanceCase c) throws Exception {
    ServerConfig config = c.maxJobSizeBytes() == null
        ? ServerConfig.forTests()
        : ServerConfig.forTests().withMaxJobSize(c.maxJobSizeBytes());
    Served served = serve(vertx, config);
    try {
      new CaseReplay(c, served.port(), served::drain).run();
    } finally {
      served.close();
    }
  }

  /** A fresh server on {@code vertx}: the one the recorded clients connect to. */
  Served serve(Vertx vertx, ServerConfig config) throws Exception {
    BeanstalkServer server = await(BeanstalkServer.deploy(vertx, config));
    return new Served() {
      public int port() {
        return server.port();
      }

      public void drain() {
        server.drain().toCompletionStage().toCompletableFuture().join();
      }

      public void close() throws Exception {
        await(server.close());
      }
    };
  }

  static <T> T await(io.vertx.core.Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(DEPLOY_SECONDS, TimeUnit.SECONDS);
  }
}
