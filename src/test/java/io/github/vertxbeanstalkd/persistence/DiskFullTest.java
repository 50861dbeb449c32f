package io.github.vertxbeanstalkd.persistence;

import static io.github.vertxbeanstalkd.persistence.LogHarness.job;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.persistence.BinlogRecord.Delete;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.JobSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiskFullTest {
  private static final long SEGMENT_BYTES = 64 * 1024;
  private static final FsyncPolicy ALWAYS = new FsyncPolicy.Always();
  @TempDir Path dir;

  private LogHarness open(FakeDisk disk) throws IOException {
    return LogHarness.open(new BinlogConfig(dir, ALWAYS, SEGMENT_BYTES, false), disk);
  }

  /** A disk where the zeros written ahead take no room, so that it fills at a record write. */
  private static FakeDisk zeroFillFree() {
    FakeDisk disk = new FakeDisk();
    disk.isZeroFillFree = true;
    return disk;
  }

  @Test
  void aFullDiskRefusesPutsKeepsDeletesGoingAndPutsResumeOnceThereIsRoom() throws IOException {
    List<JobSnapshot> jobs = new ArrayList<>();
    try (LogHarness log = open(zeroFillFree())) {
      for (int id = 1; id <= 10; id++) {
        jobs.add(job(id, "job " + id));
        log.appendDurably(jobs.get(id - 1));
      }
      // Room for part of the next record only: the write is cut back and goes to the reserve.
      log.disk.freeBytes.set(20);
      jobs.add(job(11, "x".repeat(300)));
      log.appendDurably(jobs.get(10));
      log.engine.runUntil(() -> log.binlog.health() == Binlog.Health.DISK_FULL, LogHarness.TIMEOUT_MILLIS);
      assertFalse(Files.exists(dir.resolve(SpaceReserve.FILE_NAME)), "the reserve was given to the log");
      // The engine now answers put with OUT_OF_MEMORY; deletes still become durable.
      for (int id = 1; id <= 5; id++) {
        log.appendDurably(new Delete(id));
      }
      assertEquals(Binlog.Health.DISK_FULL, log.binlog.health());
      log.disk.freeBytes.addAndGet(10L * 1024 * 1024);
      log.engine.runUntil(() -> log.binlog.health() == Binlog.Health.WRITING, LogHarness.TIMEOUT_MILLIS);
      assertEquals(List.of(Binlog.Health.DISK_FULL, Binlog.Health.WRITING), log.listener.healthChanges);
      assertTrue(Files.size(dir.resolve(SpaceReserve.FILE_NAME)) >= LogHarness.RESERVE_BYTES);
      jobs.add(job(12, "after"));
      log.appendDurably(jobs.get(11));
    }
    RecoveredLog r = Replay.read(dir, false);
    assertNull(r.tornTail(), "the cut-off write left nothing behind");
    assertEquals(jobs.subList(5, 12), r.jobs());
  }

  @Test
  void withTheReserveUsedUpNothingIsAcknowledgedUntilThereIsRoom() throws IOException {
    try (LogHarness log = open(zeroFillFree())) {
      log.appendDurably(job(1, "one"));
      log.appendDurably(job(2, "two"));
      log.disk.freeBytes.set(0);
      log.appendDurably(new Delete(1));
      // The reserve went to that delete; with no room left the next one waits, unacknowledged.
      log.disk.freeBytes.set(0);
      long s = log.append(new Delete(2));
      log.engine.runFor(300);
      assertTrue(log.listener.durable < s, "acknowledged a delete that is not on disk");
      assertTrue(log.listener.failures.isEmpty(), "a full disk is not a failure");
      log.disk.freeBytes.set(10L * 1024 * 1024);
      log.awaitDurable(s);
    }
    assertTrue(Replay.read(dir, false).jobs().isEmpty());
  }

  @Test
  void aFillingDiskTakesRecordsIntoTheZerosWrittenAheadThenRefusesPutsOnceTheyAreUsed() throws IOException {
    List<JobSnapshot> jobs = new ArrayList<>();
    try (LogHarness log = open(new FakeDisk())) {
      jobs.add(job(1, "one"));
      log.appendDurably(jobs.get(0));
      assertEquals(SEGMENT_BYTES, Files.size(SegmentFile.path(dir, 1)), "the segment was zero-filled ahead");
      log.disk.freeBytes.set(0);
      // The space is already taken: records keep landing in the zeros until the segment is full.
      int id = 2;
      for (boolean isInFirstSegment = true; isInFirstSegment; id++) {
        jobs.add(job(id, ("job " + id + " ").repeat(100)));
        log.appendDurably(jobs.get(id - 1));
        isInFirstSegment = log.binlog.stats().currentIndex() == 1;
        if (isInFirstSegment) {
          assertEquals(Binlog.Health.WRITING, log.binlog.health());
        }
      }
      // The next segment has no room: it goes to the reserve, and puts are refused.
      log.engine.runUntil(() -> log.binlog.health() == Binlog.Health.DISK_FULL, LogHarness.TIMEOUT_MILLIS);
      log.appendDurably(new Delete(1));
      log.disk.freeBytes.set(10L * 1024 * 1024);
      log.engine.runUntil(() -> log.binlog.health() == Binlog.Health.WRITING, LogHarness.TIMEOUT_MILLIS);
      JobSnapshot after = job(id, "after");
      log.appendDurably(after);
      jobs.add(after);
    }
    RecoveredLog r = Replay.read(dir, false);
    assertNull(r.tornTail(), "each segment was cut to its records");
    assertEquals(jobs.subList(1, jobs.size()), r.jobs());
  }

  @Test
  void theServerStartsOnAFullDiskAndDeletesWork() throws IOException {
    try (LogHarness log = open(new FakeDisk())) {
      log.appendDurably(job(1, "one"));
      log.appendDurably(job(2, "two"));
    }
    FakeDisk full = new FakeDisk();
    full.freeBytes.set(0);
    try (LogHarness log = open(full)) {
      assertEquals(2, log.binlog.takeRecovered().jobs().size());
      log.engine.runUntil(() -> log.binlog.health() == Binlog.Health.DISK_FULL, LogHarness.TIMEOUT_MILLIS);
      log.appendDurably(new Delete(1));
    }
    assertEquals(List.of(2L), Replay.read(dir, false).jobs().stream().map(JobSnapshot::id).toList());
  }
}
