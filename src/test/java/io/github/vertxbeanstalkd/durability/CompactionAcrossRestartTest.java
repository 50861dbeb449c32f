package io.github.vertxbeanstalkd.durability;

import static io.github.vertxbeanstalkd.durability.Wire.number;
import static io.github.vertxbeanstalkd.durability.Wire.peek;
import static io.github.vertxbeanstalkd.durability.Wire.put;
import static io.github.vertxbeanstalkd.durability.Wire.statsJob;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.FsyncSetting;
import io.github.vertxbeanstalkd.config.ServerConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Release churn over many small segments: compaction migrates live jobs and deletes old segments
 * (FORMAT.md Compaction), the directory stays within twice the live data plus two segments, and
 * a restart still finds every job with its latest priority and counters.
 */
class CompactionAcrossRestartTest {
  private static final long SEGMENT_BYTES = 4096;
  private static final int JOBS = 20;
  private static final int ROUNDS = 100;
  @TempDir Path dir;

  @Test
  void releaseChurnIsCompactedAndEveryJobSurvivesTheRestart() throws Exception {
    ServerConfig config = ServerLife.config(dir, FsyncSetting.never(), SEGMENT_BYTES, false);
    List<Long> ids = new ArrayList<>();
    List<String> bodies = new ArrayList<>();
    try (ServerLife server = ServerLife.start(config); TestClient c = TestClient.connect(server.port())) {
      for (int i = 0; i < JOBS; i++) {
        String body = "job " + i + " " + "x".repeat(100);
        ids.add(put(c, "churn", 1000, 0, body));
        bodies.add(body);
      }
      for (int round = 0; round < ROUNDS; round++) {
        StringBuilder batch = new StringBuilder();
        for (long id : ids) {
          batch.append("reserve-job ").append(id).append("\r\n");
          batch.append("release ").append(id).append(' ').append(round).append(" 0\r\n");
        }
        c.sendRaw(batch.toString());
        for (int i = 0; i < JOBS; i++) {
          c.readLine();
          c.readLine();
          c.expect("RELEASED");
        }
      }
      Map<String, String> stats = c.stats("stats");
      assertTrue(number(stats, "binlog-records-migrated") > 0, stats.toString());
      assertTrue(number(stats, "binlog-oldest-index") > 1, "old segments were deleted: " + stats);
      assertTrue(number(stats, "binlog-current-index") > 10, "the churn rolled many segments: " + stats);
      long snapshotBytes = 8 + 63 + "churn".length() + bodies.get(0).length() + 1;
      long bound = 2 * JOBS * snapshotBytes + 2 * SEGMENT_BYTES;
      long used = segmentBytes();
      assertTrue(used <= bound, used + " bytes of segments, bound " + bound);
    }
    try (ServerLife server = ServerLife.start(config); TestClient c = TestClient.connect(server.port())) {
      for (int i = 0; i < JOBS; i++) {
        long id = ids.get(i);
        assertEquals(bodies.get(i), new String(peek(c, id), StandardCharsets.ISO_8859_1));
        Map<String, String> job = statsJob(c, id);
        assertEquals("ready", job.get("state"), job.toString());
        assertEquals(ROUNDS - 1, number(job, "pri"), "the last release's priority: " + job);
        assertEquals(ROUNDS, number(job, "releases"), job.toString());
        assertEquals(ROUNDS, number(job, "reserves"), job.toString());
        assertTrue(number(job, "file") > 1, "migrated out of the first segment: " + job);
      }
      assertEquals(JOBS, number(c.stats("stats"), "current-jobs-ready"));
    }
  }

  private long segmentBytes() throws IOException {
    long total = 0;
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        if (p.getFileName().toString().startsWith("binlog.")) {
          total += Files.size(p);
        }
      }
    }
    return total;
  }
}
