package io.github.vertxbeanstalkd.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The bench's command line: defaults, every option, the scripts' command lines, and what is refused. */
class BenchOptionsTest {
  @Test
  void noArgumentsGiveTheDocumentedDefaults() {
    BenchOptions o = BenchOptions.parse();

    assertEquals(new ServerAddress("127.0.0.1", 11300), o.target);
    assertFalse(o.hasTarget);
    assertNull(o.versus);
    assertEquals(0, o.targetPid);
    assertEquals(0, o.versusPid);
    assertEquals("matrix", o.mode);
    assertEquals("tcp", o.transport);
    assertEquals("beanstalkd", o.address);
    assertEquals("raw", o.busClient);
    assertEquals(1, o.eventLoops);
    assertEquals(1, o.connections);
    assertEquals(1, o.pipeline);
    assertEquals(100, o.bodyBytes);
    assertEquals(3000, o.durationMillis);
    assertEquals(500, o.warmupMillis);
    assertEquals(0, o.count);
    assertEquals(0, o.jobs);
    assertEquals(0, o.maxBacklog);
    assertEquals(0, o.pid);
    assertEquals(0, o.prefillJobs);
    assertEquals(1, o.rounds);
    assertEquals(200_000, o.drainJobs);
    assertEquals(1_000_000, o.fillJobs);
    assertFalse(o.hasDeepQueue);
    assertEquals(5_000_000, o.queuedJobs);
    assertEquals(5000, o.stallMillis);
    assertFalse(o.isHelp);
  }

  @Test
  void everyTcpOptionSetsItsValue() {
    BenchOptions o = BenchOptions.parse("--target", "10.0.0.1:11301", "--vs", "10.0.0.2:11302",
        "--target-pid", "11", "--vs-pid", "12", "--mode", "matrix", "-c", "3", "-p", "4", "-s", "5",
        "--duration-ms", "6", "--warmup-ms", "7", "--count", "8", "--jobs", "9", "--backlog", "10",
        "--pid", "13", "--prefill", "14", "--rounds", "15", "--drain-jobs", "16", "--fill-jobs", "17",
        "--deep-queue", "--queued-jobs", "18", "--stall-ms", "19");

    assertEquals(new ServerAddress("10.0.0.1", 11301), o.target);
    assertTrue(o.hasTarget);
    assertEquals(new ServerAddress("10.0.0.2", 11302), o.versus);
    assertEquals(11, o.targetPid);
    assertEquals(12, o.versusPid);
    assertEquals("matrix", o.mode);
    assertEquals(3, o.connections);
    assertEquals(4, o.pipeline);
    assertEquals(5, o.bodyBytes);
    assertEquals(6, o.durationMillis);
    assertEquals(7, o.warmupMillis);
    assertEquals(8, o.count);
    assertEquals(9, o.jobs);
    assertEquals(10, o.maxBacklog);
    assertEquals(13, o.pid);
    assertEquals(14, o.prefillJobs);
    assertEquals(15, o.rounds);
    assertEquals(16, o.drainJobs);
    assertEquals(17, o.fillJobs);
    assertTrue(o.hasDeepQueue);
    assertEquals(18, o.queuedJobs);
    assertEquals(19, o.stallMillis);
  }

  @Test
  void longNamesOfTheShortOptionsAndEqualsSignsWork() {
    BenchOptions o = BenchOptions.parse("--connections=3", "--pipeline", "4", "--size=50", "--mode=put");

    assertEquals(3, o.connections);
    assertEquals(4, o.pipeline);
    assertEquals(50, o.bodyBytes);
    assertEquals("put", o.mode);
  }

  @Test
  void everyBusOptionSetsItsValue() {
    BenchOptions o = BenchOptions.parse("--transport", "BUS", "--address", "queue", "--bus-client", "Typed",
        "--event-loops", "2", "--mode", "Cycle");

    assertEquals("bus", o.transport);
    assertEquals("queue", o.address);
    assertEquals("typed", o.busClient);
    assertEquals(2, o.eventLoops);
    assertEquals("cycle", o.mode);
  }

  @Test
  void roundsDefaultToThreeForTwoSidesAndOneForASingleCase() {
    assertEquals(3, BenchOptions.parse("--vs", "127.0.0.1:11300").rounds);
    assertEquals(3, BenchOptions.parse("--transport", "bus").rounds);
    assertEquals(1, BenchOptions.parse("--transport", "bus", "--mode", "put").rounds);
  }

  @Test
  void theLastOfARepeatedOptionWins() {
    BenchOptions o = BenchOptions.parse("--mode", "put", "-c", "50", "--mode", "cycle", "-c", "10");

    assertEquals("cycle", o.mode);
    assertEquals(10, o.connections);
  }

  @Test
  void theScriptsCommandLinesParse() {
    // bench-store.sh's bench(): common options, then the case's.
    BenchOptions store = BenchOptions.parse("--target", "127.0.0.1:40001", "--pid", "123", "--size", "100",
        "--stall-ms", "30000", "--mode", "prefill", "--jobs", "5000000");
    assertEquals(CaseSpec.Mode.PREFILL, store.singleCase().mode());
    assertEquals(5_000_000, store.singleCase().jobs());
    // bench-binlog.sh's bench() and bench-bus.sh's tcp and in-JVM steps.
    BenchOptions binlog = BenchOptions.parse("--target", "127.0.0.1:40002", "--mode", "put", "-c", "50", "-p", "1",
        "--duration-ms", "5000", "--warmup-ms", "1000");
    assertEquals(50, binlog.singleCase().connections());
    BenchOptions bus = BenchOptions.parse("--transport", "bus", "--bus-client", "typed", "--rounds", "5",
        "--duration-ms", "3000", "--warmup-ms", "1000");
    assertEquals(5, bus.rounds);
  }

  @Test
  void badValuesAreRefusedNamingTheOption() {
    assertMessage("--connections", "-c", "x");
    assertMessage("host:port", "--target", "nohost");
    assertMessage("host:port", "--vs", "127.0.0.1:port");
    assertMessage("--duration-ms", "--duration-ms", "3s");
    assertMessage("--frob", "--frob");
    assertMessage("--target", "--target");
  }

  @Test
  void combinationsTheBenchCannotRunAreRefused() {
    assertMessage("unknown mode", "--mode", "soak");
    assertMessage("--vs runs the matrix", "--mode", "put", "--vs", "127.0.0.1:11300");
    assertMessage("--prefill must be >= 0", "--prefill", "-1");
    assertMessage("--prefill is for TCP servers", "--transport", "bus", "--prefill", "10");
    assertMessage("--event-loops must be >= 1", "--transport", "bus", "--event-loops", "0");
  }

  @Test
  void helpIsAnsweredWithoutCheckingTheRest() {
    assertTrue(BenchOptions.parse("--transport", "pigeon", "-h").isHelp);
    assertTrue(BenchOptions.parse("--help").isHelp);
  }

  @Test
  void usageListsEveryDocumentedOption() {
    String usage = BenchOptions.usage();

    for (String name : List.of("--target", "--vs", "--target-pid", "--vs-pid", "--mode", "--transport",
        "--address", "--bus-client", "--event-loops", "-c, --connections", "-p, --pipeline", "-s, --size",
        "--duration-ms", "--warmup-ms", "--count", "--jobs", "--backlog", "--pid", "--prefill", "--rounds",
        "--drain-jobs", "--fill-jobs", "--deep-queue", "--queued-jobs", "--stall-ms", "-h, --help")) {
      assertTrue(usage.contains(name + "=") || usage.contains(name + " "), name + " in\n" + usage);
    }
    assertTrue(usage.contains("default 127.0.0.1:11300"), usage);
  }

  private static void assertMessage(String expectedPart, String... args) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse(args));
    assertTrue(e.getMessage().contains(expectedPart), e.getMessage());
  }
}
