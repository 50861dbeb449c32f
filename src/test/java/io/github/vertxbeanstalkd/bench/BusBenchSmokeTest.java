package io.github.vertxbeanstalkd.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The bus modes against a server deployed into the bench's own Vert.x: short cases count ops and see no errors. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BusBenchSmokeTest {
  private static final long STALL_MILLIS = 5000;
  private static BusTarget target;

  @BeforeAll
  static void deploy() {
    target = BusTarget.inJvm(1, "bench-smoke");
  }

  @AfterAll
  static void close() {
    target.close();
  }

  @Test
  void rawPutOverTheBusCountsInsertedJobsWithoutErrors() {
    CaseResult result = BusCase.run(target, timed(CaseSpec.Mode.PUT, 4), "raw", STALL_MILLIS);

    assertEquals(0, result.errors(), result.humanLine());
    assertTrue(result.ops() > 0, result.humanLine());
    assertTrue(result.p99Nanos() >= result.p50Nanos() && result.p50Nanos() > 0, result.humanLine());
    assertTrue(result.jsonLine().startsWith("{\"case\":\"put c=4 p=1\",\"server\":\"bus bench-smoke in-JVM (raw)\""),
        result.jsonLine());
  }

  @Test
  void countedPutOverTheBusPutsExactlyTheCount() {
    CaseResult result = BusCase.run(target, new CaseSpec(CaseSpec.Mode.PUT, 3, 2, 10, 0, -1, 500, 0, 0, 0, 0),
        "raw", STALL_MILLIS);

    assertEquals(0, result.errors(), result.humanLine());
    assertEquals(500, result.ops(), result.humanLine());
  }

  @Test
  void rawCycleReservesAndDeletesWhatItPutsWithoutErrors() {
    CaseResult result = BusCase.run(target, timed(CaseSpec.Mode.CYCLE, 3), "raw", STALL_MILLIS);

    assertEquals(0, result.errors(), result.humanLine());
    assertTrue(result.ops() > 0, result.humanLine());
    assertTrue(result.p50Nanos() > 0, result.humanLine());
  }

  @Test
  void typedClientRunsPutAndCycleWithoutErrors() {
    CaseResult put = BusCase.run(target, timed(CaseSpec.Mode.PUT, 2), "typed", STALL_MILLIS);
    CaseResult cycle = BusCase.run(target, timed(CaseSpec.Mode.CYCLE, 2), "typed", STALL_MILLIS);

    assertEquals(0, put.errors(), put.humanLine());
    assertTrue(put.ops() > 0, put.humanLine());
    assertEquals(0, cycle.errors(), cycle.humanLine());
    assertTrue(cycle.ops() > 0, cycle.humanLine());
  }

  @Test
  void busMatrixComparesWithTcpOnTheSameServer() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    BenchOptions options = BenchOptions.parse("--transport", "bus", "--address", "bench-matrix", "--rounds", "1",
        "--warmup-ms", "50", "--duration-ms", "150", "--size", "20");

    long errors = Bench.run(options, new PrintStream(bytes, true, StandardCharsets.UTF_8));

    String out = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(0, errors, out);
    assertTrue(out.contains("\"case\":\"cycle 10+10\",\"server\":\"bus bench-matrix in-JVM (raw)\""), out);
    assertTrue(out.contains("\"case\":\"put c=50 p=1\",\"server\":\"127.0.0.1:"), out);
    assertTrue(out.contains("# put c=50 p=1, bus/TCP ops/s: "), out);
  }

  @Test
  void busOptionsRefuseWhatTheBusCannotRun() {
    assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--transport", "bus", "--mode", "drain"));
    assertThrows(IllegalArgumentException.class,
        () -> BenchOptions.parse("--transport", "bus", "--vs", "127.0.0.1:11300"));
    assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--transport", "pigeon"));
    assertThrows(IllegalArgumentException.class,
        () -> BenchOptions.parse("--transport", "bus", "--mode", "cycle", "--size", "8"));
    assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--transport", "bus", "--bus-client", "x"));
  }

  private static CaseSpec timed(CaseSpec.Mode mode, int connections) {
    return new CaseSpec(mode, connections, 1, 32, 100, 300, 0, 0, 0, 0, 0);
  }
}
