package io.github.vertxbeanstalkd.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.persistence.Binlog;
import io.github.vertxbeanstalkd.persistence.BinlogConfig;
import io.github.vertxbeanstalkd.persistence.BinlogListener;
import io.github.vertxbeanstalkd.persistence.BinlogRecord;
import io.github.vertxbeanstalkd.persistence.FsyncPolicy;
import io.github.vertxbeanstalkd.persistence.JobCounters;
import io.github.vertxbeanstalkd.persistence.SnapshotState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restart brings back a backlog far larger than the heap: a log of a million jobs of 100 bytes
 * (about 180 MB of records) replays into a server whose heap is 64 MiB, because replay streams
 * every record into the off-heap job store and the log's own account of its segments is off the
 * heap too. Holding the jobs on the heap while reading (about 350 bytes a job) needs over 300 MiB.
 */
class DeepReplayTest {
  private static final int JOBS = 1_000_000;
  private static final byte[] BODY = "x".repeat(100).getBytes(StandardCharsets.US_ASCII);
  @TempDir Path dir;
  @TempDir Path logs;

  @Test
  void aMillionJobsComeBackIntoA64MibHeap() throws Exception {
    long buried = writeLog();
    String conf = "{\"port\":0,\"http\":{\"port\":0},\"binlog\":{\"dir\":\""
        + dir.toAbsolutePath() + "\",\"fsync\":\"never\"}}";
    // The heap a replay may take is the test: the job store's room is set apart, as conf/jvm.options does.
    List<String> jvm = List.of("-Xmx64m", "-XX:MaxDirectMemorySize=1g", "-XX:+ExitOnOutOfMemoryError");
    try (ServerProcess server = ServerProcess.start(jvm, conf, logs.resolve("server.log"));
        TestClient c = TestClient.connect(server.port())) {
      Map<String, String> stats = c.stats("stats");
      assertEquals(JOBS - JOBS / 10 - buried, Wire.number(stats, "current-jobs-ready"), server::log);
      assertEquals(buried, Wire.number(stats, "current-jobs-buried"), server::log);
      assertTrue(Arrays.equals(BODY, Wire.peek(c, JOBS - 3)), "a late job's body");
      Wire.expectGone(c, 10);
      Map<String, String> job = Wire.statsJob(c, 7);
      assertEquals("buried", job.get("state"), job::toString);
      assertEquals("2", job.get("pri"), job::toString);
      assertEquals("1", job.get("buries"), job::toString);
      // Ids go on above every id the log held.
      assertEquals(JOBS + 1, Wire.put(c, "default", 0, 0, "next"));
    }
  }

  /**
   * Puts {@link #JOBS} jobs, deletes every tenth, buries every seventh of the rest (a change the
   * replay applies where the job is stored), and closes the log; returns how many are buried.
   */
  private long writeLog() throws IOException {
    BinlogConfig config = new BinlogConfig(dir, new FsyncPolicy.Never(), BinlogConfig.DEFAULT_SEGMENT_SIZE, false);
    Binlog log = Binlog.open(config, Runnable::run, new BinlogListener() {
      @Override
      public void onDurable(long sequence) {}

      @Override
      public void onFailure(Throwable cause) {
        throw new AssertionError("the log failed", cause);
      }
    });
    long buried = 0;
    try {
      for (long id = 1; id <= JOBS; id++) {
        log.append(new BinlogRecord.JobSnapshot(id, "default", SnapshotState.READY, 1, 0, 0, 60,
            System.currentTimeMillis(), JobCounters.ZERO, BODY));
        if (id % 10 == 0) {
          log.append(new BinlogRecord.Delete(id));
        } else if (id % 7 == 0) {
          log.append(new BinlogRecord.Bury(id, 2, new JobCounters(1, 0, 0, 1, 0)));
          buried++;
        }
      }
    } finally {
      log.close();
    }
    return buried;
  }
}
