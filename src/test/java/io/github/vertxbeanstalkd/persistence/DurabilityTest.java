package io.github.vertxbeanstalkd.persistence;

import static io.github.vertxbeanstalkd.persistence.LogHarness.job;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.persistence.BinlogRecord.HighWater;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.JobSnapshot;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DurabilityTest {
  private static final long SEGMENT_BYTES = 1 << 20;
  @TempDir Path dir;

  @Test
  void withAlwaysOneFsyncCoversEveryRecordThatArrivedMeanwhileAndAcksFollowTheFsync() throws IOException {
    try (LogHarness log = LogHarness.open(dir, new FsyncPolicy.Always(), SEGMENT_BYTES)) {
      log.awaitDurable(1);
      int forcesBefore = log.disk.forces.get();
      log.disk.forceDelayMillis = 20;
      // Where each record ends in the segment: header, the high-water record, then the jobs.
      List<Long> ends = new ArrayList<>(List.of(0L,
          (long) SegmentFile.HEADER_BYTES + RecordCodec.frameBytes(new HighWater(1))));
      log.listener.onEveryAck = sequence -> assertTrue(
          log.disk.segmentBytesForced.get() >= ends.get((int) sequence), "acknowledged before its fsync");
      long last = 0;
      for (int id = 1; id <= 200; id++) {
        JobSnapshot j = job(id, "body " + id);
        ends.add(ends.get(ends.size() - 1) + RecordCodec.frameBytes(j));
        last = log.append(j);
      }
      log.awaitDurable(last);
      int forces = log.disk.forces.get() - forcesBefore;
      assertTrue(forces >= 1 && forces <= 20, "200 records took " + forces + " fsyncs");
    }
  }

  @Test
  void withAnIntervalEveryWriteIsFsyncedWithinTheIntervalAfterTheServerGoesIdle() throws IOException {
    long intervalMillis = 300;
    try (LogHarness log = LogHarness.open(dir, new FsyncPolicy.Interval(intervalMillis), SEGMENT_BYTES)) {
      log.awaitDurable(1);
      log.engine.runUntil(() -> log.disk.forces.get() == 1, LogHarness.TIMEOUT_MILLIS);
      log.appendDurably(job(1, "one"));
      log.appendDurably(job(2, "two"));
      // Idle from here on: nothing else would make the writer run, only its own timer.
      log.engine.runUntil(() -> log.disk.segmentBytesForced.get() == log.disk.segmentBytesWritten.get(),
          LogHarness.TIMEOUT_MILLIS);
      long delayMillis = TimeUnit.NANOSECONDS.toMillis(log.disk.lastForceNanos - log.disk.lastWriteNanos);
      assertTrue(delayMillis >= intervalMillis - 50,
          "fsync came " + delayMillis + " ms after the write: not batched");
      assertTrue(delayMillis <= intervalMillis + 1000, "fsync came " + delayMillis + " ms after the write");
      assertEquals(2, log.disk.forces.get());
    }
  }

  @Test
  void withNeverAcksComeWithoutAnyFsync() throws IOException {
    try (LogHarness log = LogHarness.open(dir, new FsyncPolicy.Never(), SEGMENT_BYTES)) {
      long last = 0;
      for (int id = 1; id <= 50; id++) {
        last = log.append(job(id, "x"));
      }
      log.awaitDurable(last);
      log.engine.runFor(100);
      assertEquals(0, log.disk.forces.get());
    }
  }

  @Test
  void closeWritesAndFsyncsEverythingAppended() throws IOException {
    List<JobSnapshot> jobs = new ArrayList<>();
    try (LogHarness log = LogHarness.open(dir, new FsyncPolicy.Interval(60_000), SEGMENT_BYTES)) {
      for (int id = 1; id <= 100; id++) {
        jobs.add(job(id, "job " + id));
        log.append(jobs.get(jobs.size() - 1));
      }
    }
    assertEquals(jobs, Replay.read(dir, false).jobs());
  }

  @Test
  void aSecondServerOnTheSameDirectoryFailsAtStart() throws IOException {
    try (LogHarness first = LogHarness.open(dir, new FsyncPolicy.Always(), SEGMENT_BYTES)) {
      IOException e = assertThrows(IOException.class,
          () -> LogHarness.open(dir, new FsyncPolicy.Always(), SEGMENT_BYTES));
      assertTrue(e.getMessage().contains("in use by another server"), e.getMessage());
      first.awaitDurable(1);
    }
    try (LogHarness again = LogHarness.open(dir, new FsyncPolicy.Always(), SEGMENT_BYTES)) {
      again.awaitDurable(1);
    }
  }

  @Test
  void aFailedWriteStopsAcknowledgingForGood() throws IOException {
    try (LogHarness log = LogHarness.open(dir, new FsyncPolicy.Always(), SEGMENT_BYTES)) {
      log.awaitDurable(1);
      log.disk.isWriteBroken = true;
      long s = log.append(job(1, "lost"));
      log.engine.runUntil(() -> !log.listener.failures.isEmpty(), LogHarness.TIMEOUT_MILLIS);
      assertEquals(Binlog.Health.FAILED, log.binlog.health());
      assertTrue(log.listener.durable < s);
      assertThrows(IllegalStateException.class, () -> log.append(job(2, "refused")));
      assertFalse(log.binlog.isCompactionDue());
    }
  }

  @Test
  void aFailedFsyncStopsAcknowledgingEvenThoughTheWriteWorked() throws IOException {
    try (LogHarness log = LogHarness.open(dir, new FsyncPolicy.Always(), SEGMENT_BYTES)) {
      log.awaitDurable(1);
      log.disk.isForceBroken = true;
      long s = log.append(job(1, "written, never fsynced"));
      log.engine.runUntil(() -> !log.listener.failures.isEmpty(), LogHarness.TIMEOUT_MILLIS);
      assertEquals(Binlog.Health.FAILED, log.binlog.health());
      assertTrue(log.listener.durable < s);
    }
  }
}
