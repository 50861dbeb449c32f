package io.github.vertxbeanstalkd.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** The load generator against the in-process server: short cases count ops and see no errors. */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BenchSmokeTest {
  private static final long STALL_MILLIS = 5000;
  private ServerAddress server;

  @BeforeEach
  void deploy(Vertx vertx, VertxTestContext context) {
    BeanstalkServer.deploy(vertx, ServerConfig.forTests()).map(BeanstalkServer::port).onComplete(context.succeeding(port -> {
      server = new ServerAddress("127.0.0.1", port);
      context.completeNow();
    }));
  }

  @Test
  void timedPutCountsInsertedJobsWithoutErrors() {
    CaseResult result = Bench.run(
        new CaseSpec(CaseSpec.Mode.PUT, 2, 4, 100, 100, 400, 0, 0, 0, 0, 0), server, STALL_MILLIS);

    assertEquals(0, result.errors(), result.humanLine());
    assertTrue(result.ops() > 0, result.humanLine());
    assertTrue(result.p99Nanos() >= result.p50Nanos() && result.p50Nanos() > 0, result.humanLine());
    assertTrue(result.jsonLine().startsWith("{\"case\":\"put c=2 p=4\""), result.jsonLine());
  }

  @Test
  void countedPutPutsExactlyTheCount() {
    CaseResult result = Bench.run(
        new CaseSpec(CaseSpec.Mode.PUT, 3, 8, 10, 0, -1, 1000, 0, 0, 0, 0), server, STALL_MILLIS);

    assertEquals(0, result.errors(), result.humanLine());
    assertEquals(1000, result.ops(), result.humanLine());
  }

  @Test
  void cycleReservesAndDeletesWhatItPutsWithoutErrors() {
    CaseResult result = Bench.run(
        new CaseSpec(CaseSpec.Mode.CYCLE, 2, 1, 16, 100, 400, 0, 0, 0, 0, 0), server, STALL_MILLIS);

    assertEquals(0, result.errors(), result.humanLine());
    assertTrue(result.ops() > 0, result.humanLine());
    assertTrue(result.p50Nanos() > 0, result.humanLine());
  }

  @Test
  void drainDeletesEveryPreloadedJob() {
    CaseResult result = Bench.run(
        new CaseSpec(CaseSpec.Mode.DRAIN, 2, 2, 10, 0, -1, 0, 500, 0, 0, 0), server, STALL_MILLIS);

    assertEquals(0, result.errors(), result.humanLine());
    assertEquals(500, result.ops(), result.humanLine());
  }

  @Test
  void prefillLeavesItsJobsQueued() {
    CaseResult result = Bench.run(
        new CaseSpec(CaseSpec.Mode.PREFILL, 1, 1, 10, 0, -1, 0, 3000, 0, 0, 0), server, STALL_MILLIS);

    assertEquals(0, result.errors(), result.humanLine());
    assertEquals(3000, result.ops(), result.humanLine());
    assertEquals("3000", readyJobs());
  }

  @Test
  void prefillOptionRunsBeforeTheCaseAndStays() {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    BenchOptions options = BenchOptions.parse("--target", server.toString(), "--prefill", "2000",
        "--mode", "put", "-c", "2", "--count", "100");

    long errors = Bench.run(options, new PrintStream(printed, true, StandardCharsets.UTF_8));

    String output = printed.toString(StandardCharsets.UTF_8);
    assertEquals(0, errors, output);
    assertTrue(output.indexOf("prefill 2000 x 100 B") >= 0, output);
    assertTrue(output.indexOf("put c=2 p=1 n=100") > output.indexOf("prefill 2000"), output);
    assertEquals("2000", readyJobs(), output);
  }

  private String readyJobs() {
    try (TestClient client = TestClient.connect(server.port())) {
      return client.stats("stats").get("current-jobs-ready");
    }
  }

  @Test
  void unreachableServerIsReportedAsAnError() throws Exception {
    int closedPort;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    CaseResult result = Bench.run(
        new CaseSpec(CaseSpec.Mode.PUT, 1, 1, 10, 0, 100, 0, 0, 0, 0, 0),
        new ServerAddress("127.0.0.1", closedPort), STALL_MILLIS);

    assertEquals(1, result.errors(), result.humanLine());
  }
}
