package io.github.vertxbeanstalkd.persistence;

import static io.github.vertxbeanstalkd.persistence.LogHarness.job;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.persistence.BinlogRecord.Bury;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Delete;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.JobSnapshot;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Kick;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Release;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Reserve;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplayTest {
  private static final FsyncPolicy ALWAYS = new FsyncPolicy.Always();
  @TempDir Path dir;

  private void write(BinlogRecord... records) throws IOException {
    try (LogHarness log = LogHarness.open(dir, ALWAYS, 1 << 20)) {
      long last = 0;
      for (BinlogRecord r : records) {
        last = log.append(r);
      }
      log.awaitDurable(last);
    }
  }

  @Test
  void putsComeBackInEveryStoredStateWithTubeBodyAndTimes() throws IOException {
    JobSnapshot ready = job(1, "default", SnapshotState.READY, 1024, "one");
    JobSnapshot delayed = job(2, "emails", SnapshotState.DELAYED, 5, "two");
    JobSnapshot buried = job(3, "emails", SnapshotState.BURIED, -1, "three");
    write(ready, delayed, buried);
    RecoveredLog r = Replay.read(dir, false);
    assertEquals(List.of(ready, delayed, buried), r.jobs());
    assertEquals(1_700_000_060_000L, r.jobs().get(1).readyAtEpochMillis());
    assertEquals(4, r.nextJobId());
    assertNull(r.tornTail());
    assertEquals(0, r.damagedRegionsSkipped());
  }

  @Test
  void releaseRestoresTheNewPriorityTheDelayAndTheAbsoluteDeadline() throws IOException {
    JobCounters counters = new JobCounters(2, 1, 1, 0, 0);
    write(job(1, "a"), new Release(1, 7, 30, 1_700_000_030_000L, counters),
        job(2, "b"), new Release(2, 9, 30, 1_700_000_030_000L, counters), new Release(2, 3, 0, 0, counters));
    List<JobSnapshot> jobs = Replay.read(dir, false).jobs();
    JobSnapshot delayed = jobs.get(0);
    assertEquals(SnapshotState.DELAYED, delayed.state());
    assertEquals(7, delayed.priority());
    assertEquals(30, delayed.delaySeconds());
    assertEquals(1_700_000_030_000L, delayed.readyAtEpochMillis());
    assertEquals(counters, delayed.counters());
    JobSnapshot ready = jobs.get(1);
    assertEquals(SnapshotState.READY, ready.state());
    assertEquals(3, ready.priority());
    assertEquals(0, ready.readyAtEpochMillis());
  }

  @Test
  void buryKeepsTheNewPriorityAndKickMakesTheJobReady() throws IOException {
    JobCounters buried = new JobCounters(1, 0, 0, 1, 0);
    JobCounters kicked = new JobCounters(1, 0, 0, 1, 1);
    write(job(1, "a"), new Bury(1, 77, buried), job(2, "b"), new Bury(2, 88, buried), new Kick(2, kicked),
        job(3, "default", SnapshotState.DELAYED, 1, "c"), new Kick(3, new JobCounters(0, 0, 0, 0, 1)));
    List<JobSnapshot> jobs = Replay.read(dir, false).jobs();
    assertEquals(SnapshotState.BURIED, jobs.get(0).state());
    assertEquals(77, jobs.get(0).priority());
    assertEquals(buried, jobs.get(0).counters());
    assertEquals(SnapshotState.READY, jobs.get(1).state());
    assertEquals(88, jobs.get(1).priority());
    assertEquals(kicked, jobs.get(1).counters());
    assertEquals(SnapshotState.READY, jobs.get(2).state());
    assertEquals(0, jobs.get(2).readyAtEpochMillis());
  }

  @Test
  void aJobReservedOutOfBuriedComesBackReady() throws IOException {
    write(job(1, "a"), new Bury(1, 5, new JobCounters(1, 0, 0, 1, 0)),
        new Reserve(1, new JobCounters(2, 0, 0, 1, 0)));
    JobSnapshot j = Replay.read(dir, false).jobs().get(0);
    assertEquals(SnapshotState.READY, j.state());
    assertEquals(5, j.priority());
    assertEquals(2, j.counters().reserves());
  }

  @Test
  void deletedJobsStayDeletedAndChangesToUnknownJobsAreIgnored() throws IOException {
    write(job(1, "a"), job(2, "b"), new Delete(1), new Release(9, 1, 0, 0, JobCounters.ZERO),
        new Bury(8, 1, JobCounters.ZERO), new Kick(7, JobCounters.ZERO), new Delete(6));
    RecoveredLog r = Replay.read(dir, false);
    assertEquals(List.of(2L), r.jobs().stream().map(JobSnapshot::id).toList());
    assertEquals(10, r.nextJobId());
  }

  @Test
  void idsNeverGoBackwardsEvenAfterEveryJobWasDeletedAndCompactedAway() throws IOException {
    try (LogHarness log = LogHarness.open(dir, ALWAYS, 4096)) {
      for (long id = 1; id <= 5; id++) {
        log.append(job(id, "x".repeat(1000)));
      }
      long last = 0;
      for (long id = 1; id <= 5; id++) {
        last = log.append(new Delete(id));
      }
      log.awaitDurable(last);
    }
    // Restart twice without a put: each run starts a segment and the older ones are deleted.
    for (int run = 0; run < 2; run++) {
      try (LogHarness log = LogHarness.open(dir, ALWAYS, 4096)) {
        RecoveredLog r = log.binlog.takeRecovered();
        assertTrue(r.jobs().isEmpty());
        assertEquals(6, r.nextJobId());
        log.awaitDurable(1);
      }
    }
    assertFalse(Files.exists(SegmentFile.path(dir, 1)), "segments without live jobs are deleted");
    assertEquals(6, Replay.read(dir, false).nextJobId());
  }

  @Test
  void aRestartContinuesInANewSegmentAndReportsWhereEachJobIsStored() throws IOException {
    write(job(1, "a"), job(2, "b"));
    try (LogHarness log = LogHarness.open(dir, ALWAYS, 1 << 20)) {
      assertEquals(2, log.binlog.takeRecovered().jobs().size());
      long s = log.appendDurably(job(3, "c"));
      assertEquals(1, log.binlog.segmentOf(1));
      assertEquals(2, log.binlog.segmentOf(3));
      assertEquals(0, log.binlog.segmentOf(99));
      BinlogStats stats = log.binlog.stats();
      assertEquals(1, stats.oldestIndex());
      assertEquals(2, stats.currentIndex());
      assertEquals(s, stats.recordsWritten());
      assertEquals(1 << 20, stats.maxSizeBytes());
    }
    assertEquals(3, Replay.read(dir, false).jobs().size());
  }

  @Test
  void inMemoryEverythingIsDurableAtOnceAndStatsAreZero() {
    Binlog memory = Binlog.inMemory(BinlogConfig.inMemory());
    long s = memory.append(job(1, "a"));
    assertTrue(s <= memory.durableSequence());
    assertEquals(new BinlogStats(0, 0, 0, 0, 10L * 1024 * 1024, 0), memory.stats());
    assertEquals(0, memory.jobsToMigrate(10).length);
  }
}
