package io.github.vertxbeanstalkd.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.persistence.BinlogRecord.JobSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompactionTest {
  private static final long SEGMENT_BYTES = 16 * 1024;
  private static final FsyncPolicy NEVER = new FsyncPolicy.Never();
  @TempDir Path dir;

  private long segmentFilesBytes() throws IOException {
    long total = 0;
    for (Path p : SegmentFile.list(dir)) {
      total += Files.size(p);
    }
    return total;
  }

  private static long liveBytes(List<JobSnapshot> jobs) {
    return jobs.stream().mapToLong(RecordCodec::frameBytes).sum();
  }

  @Test
  void releaseWithDelayChurnOnAFewJobsDeletesOldSegmentsAndStaysWithinTheBound() throws IOException {
    ModelEngine engine;
    long bound;
    // 60 000 releases: an hour of churn at more than 16 a second, about 200 segments of records.
    try (LogHarness log = LogHarness.open(dir, NEVER, SEGMENT_BYTES)) {
      engine = new ModelEngine(log, SEGMENT_BYTES);
      List<Long> ids = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        ids.add(engine.put("churn", 100, 200));
      }
      bound = 2 * liveBytes(engine.expected()) + 2 * SEGMENT_BYTES;
      for (int n = 0; n < 60_000; n++) {
        engine.release(ids.get(n % ids.size()), n, 1 + n % 600);
        if (n % 5_000 == 0) {
          engine.awaitDurable();
          // The writer may still be deleting the segment just made unneeded.
          assertTrue(segmentFilesBytes() <= bound + SEGMENT_BYTES, "on disk: " + segmentFilesBytes());
        }
      }
      engine.awaitDurable();
      BinlogStats stats = log.binlog.stats();
      assertTrue(stats.oldestIndex() > 150, "old segments were not deleted: " + stats);
      assertTrue(stats.currentIndex() - stats.oldestIndex() <= 2, stats.toString());
      assertTrue(stats.recordsMigrated() >= 10 * 150, stats.toString());
    }
    assertTrue(segmentFilesBytes() <= bound, "on disk " + segmentFilesBytes() + ", bound " + bound);
    assertEquals(engine.expected(), Replay.read(dir, false).jobs());
  }

  @Test
  void aLargeLiveSetUnderMixedChurnStaysWithinTheBound() throws IOException {
    Random random = new Random(7);
    ModelEngine engine;
    try (LogHarness log = LogHarness.open(dir, NEVER, SEGMENT_BYTES)) {
      engine = new ModelEngine(log, SEGMENT_BYTES);
      for (int i = 0; i < 1500; i++) {
        engine.put("big", i, 100 + random.nextInt(300));
      }
      for (int n = 0; n < 40_000; n++) {
        Long id = engine.jobs.ceilingKey(1 + (long) random.nextInt((int) engine.nextId));
        id = id != null ? id : engine.jobs.firstKey();
        switch (random.nextInt(10)) {
          case 0 -> engine.delete(id);
          case 1 -> engine.put("big", n, 100 + random.nextInt(300));
          case 2 -> engine.bury(id, n);
          case 3 -> engine.kick(id);
          default -> engine.release(id, n, random.nextInt(3));
        }
      }
      engine.awaitDurable();
    }
    long bound = 2 * liveBytes(engine.expected()) + 2 * SEGMENT_BYTES;
    assertTrue(segmentFilesBytes() <= bound, "on disk " + segmentFilesBytes() + ", bound " + bound);
    assertEquals(engine.expected(), Replay.read(dir, false).jobs());
  }

  @Test
  void randomChangesAcrossRestartsReplayToExactlyTheEngineState() throws IOException {
    Random random = new Random(11);
    List<JobSnapshot> expected = List.of();
    for (int run = 0; run < 5; run++) {
      try (LogHarness log = LogHarness.open(dir, new FsyncPolicy.Always(), 4096)) {
        ModelEngine engine = new ModelEngine(log, 4096);
        assertEquals(expected, new ArrayList<>(engine.jobs.values()), "run " + run);
        for (int n = 0; n < 1500; n++) {
          List<Long> live = new ArrayList<>(engine.jobs.keySet());
          if (live.size() < 5 || random.nextInt(6) == 0) {
            engine.put("t" + random.nextInt(3), random.nextInt(), random.nextInt(200));
            continue;
          }
          long id = live.get(random.nextInt(live.size()));
          switch (random.nextInt(6)) {
            case 0 -> engine.delete(id);
            case 1 -> engine.bury(id, random.nextInt());
            case 2 -> engine.kick(id);
            case 3 -> engine.reserve(id);
            default -> engine.release(id, random.nextInt(), random.nextInt(2) * random.nextInt(1000));
          }
        }
        engine.awaitDurable();
        expected = engine.expected();
      }
    }
    assertEquals(expected, Replay.read(dir, false).jobs());
  }

  @Test
  void aRecordLargerThanASegmentGetsASegmentToItself() throws IOException {
    try (LogHarness log = LogHarness.open(dir, NEVER, 4096)) {
      ModelEngine engine = new ModelEngine(log, 4096);
      engine.put("small", 1, 10);
      long big = engine.put("big", 1, 10_000);
      long after = engine.put("small", 1, 10);
      engine.awaitDurable();
      assertEquals(2, log.binlog.segmentOf(big));
      assertEquals(3, log.binlog.segmentOf(after));
      assertEquals(3, Replay.read(dir, false).jobs().size());
    }
  }
}
