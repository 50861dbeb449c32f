package io.github.vertxbeanstalkd.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 of the real server process loses nothing acknowledged, under every fsync policy: a reply
 * leaves only after its record reached at least the OS page cache, which a process crash does not
 * lose (FORMAT.md; QueueEngine holds replies until the binlog's durable sequence covers them).
 *
 * <p>The normal run is a few short trials. The long harness, for example:
 * {@code mvn -B verify -Dtest=CrashTest -Dcrash.trials=100 -Dcrash.policies=always,50,never
 * -Dcrash.cycles=4 -Dcrash.report=target/crash-report.txt}.
 */
class CrashTest {
  /** Small segments, so that the crashes land among segment rolls and compaction. */
  private static final long SEGMENT_BYTES = 64 * 1024;
  @TempDir Path tmp;

  @Test
  void killNineLosesNoAcknowledgedPutOrDeleteAndReusesNoId() throws Exception {
    int trials = Integer.getInteger("crash.trials", 2);
    List<String> policies = List.of(System.getProperty("crash.policies", "always,50").split(","));
    int cycles = Integer.getInteger("crash.cycles", 3);
    long seed = Long.getLong("crash.seed", new Random().nextLong());
    CrashTally total = new CrashTally();
    StringBuilder report = new StringBuilder("crash harness: seed " + seed + ", " + trials + " trials x "
        + policies + ", " + cycles + " crash cycles each, segments of " + SEGMENT_BYTES + " bytes\n");
    Random random = new Random(seed);
    long startNanos = System.nanoTime();
    long puts = 0;
    long deletes = 0;
    for (String fsync : policies) {
      CrashTally perPolicy = new CrashTally();
      long policyNanos = System.nanoTime();
      long[] acked = new long[5];
      for (int t = 1; t <= trials; t++) {
        Path dir = tmp.resolve(fsync + "-" + t);
        CrashTrial.Settings settings = new CrashTrial.Settings(fsync, cycles, SEGMENT_BYTES, 3, 3, 200, 1200);
        CrashTrial.Result r = CrashTrial.run(dir, settings, fsync + "T" + t, random.nextLong());
        perPolicy.addAll(r.tally());
        acked[0] += r.puts();
        acked[1] += r.deletes();
        acked[2] += r.releases();
        acked[3] += r.buries();
        acked[4] += r.kicks();
        System.out.printf("crash fsync=%s trial %d: %d ms, acked puts %d deletes %d releases %d buries %d kicks %d;"
            + " %s%n", fsync, t, r.elapsedMillis(), r.puts(), r.deletes(), r.releases(), r.buries(), r.kicks(),
            r.tally().summary());
        if (r.tally().total() == 0) {
          deleteTrial(dir);
        }
      }
      report.append(String.format("fsync=%s: %d trials in %.1f s; acknowledged puts %d, deletes %d, releases %d,"
          + " buries %d, kicks %d; %s%n", fsync, trials, (System.nanoTime() - policyNanos) / 1e9, acked[0],
          acked[1], acked[2], acked[3], acked[4], perPolicy.summary()));
      total.addAll(perPolicy);
      puts += acked[0];
      deletes += acked[1];
    }
    report.append(String.format("total: %.1f s; %s%n", (System.nanoTime() - startNanos) / 1e9, total.summary()));
    System.out.print(report);
    String reportFile = System.getProperty("crash.report");
    if (reportFile != null) {
      Files.writeString(Path.of(reportFile), report + total.examples() + "\n");
    }
    assertEquals(0, total.total(), total.summary() + "\n" + total.examples());
    assertTrue(puts > 0 && deletes > 0, "the workload did nothing: " + report);
  }

  /** A trial that found nothing leaves no files behind; a failing one keeps its logs for a look. */
  private static void deleteTrial(Path dir) throws IOException {
    String serverLogs = dir.getFileName() + "-server-";
    try (Stream<Path> all = Files.walk(dir.getParent())) {
      for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
        if (p.startsWith(dir) || p.getFileName().toString().startsWith(serverLogs)) {
          Files.delete(p);
        }
      }
    }
  }
}
