package io.github.vertxbeanstalkd.persistence;

import static io.github.vertxbeanstalkd.persistence.LogHarness.job;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.persistence.BinlogRecord.Bury;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Delete;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Release;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading a log's records from a position on, as they were appended, without each segment's high-water mark. */
class RecordScanTest {
  private static final long SEGMENT_BYTES = 4096;

  @TempDir
  Path dir;

  @Test
  void everyRecordAppendedAfterThePositionComesBackInOrderAcrossSegments() throws IOException {
    List<BinlogRecord> after = new ArrayList<>();
    LogPosition from;
    try (LogHarness log = LogHarness.open(dir, new FsyncPolicy.Always(), SEGMENT_BYTES)) {
      for (int id = 1; id <= 5; id++) {
        log.append(job(id, ("before " + id + " ").repeat(20)));
      }
      from = log.binlog.position();
      long last = 0;
      for (int id = 6; id <= 60; id++) {
        after.add(job(id, ("after " + id + " ").repeat(20)));
        after.add(id % 3 == 0 ? new Delete(id - 4) : id % 3 == 1
            ? new Release(id, 7, 0, 0, new JobCounters(1, 0, 1, 0, 0)) : new Bury(id, 3, new JobCounters(1, 0, 0, 1, 0)));
      }
      for (BinlogRecord r : after) {
        last = log.append(r);
      }
      log.awaitDurable(last);
      assertTrue(log.binlog.position().segment() > from.segment() + 2, "the records span a few segments");
    }
    List<BinlogRecord> read = new ArrayList<>();
    long[] bytes = {0};
    boolean whole = RecordScan.scan(dir, from, RecordScan.segmentsEnd(dir), (r, frameBytes) -> {
      read.add(r);
      bytes[0] += frameBytes;
    });
    assertTrue(whole);
    assertEquals(after, read);
    assertEquals(after.stream().mapToLong(RecordFrames::frameBytes).sum(), bytes[0]);
  }

  @Test
  void aMissingSegmentMeansTheLogCannotBeReadFromThere() throws IOException {
    LogPosition from;
    try (LogHarness log = LogHarness.open(dir, new FsyncPolicy.Always(), SEGMENT_BYTES)) {
      log.append(job(1, "first"));
      from = log.binlog.position();
      long last = 0;
      for (int id = 2; id <= 60; id++) {
        last = log.append(job(id, ("job " + id + " ").repeat(20)));
      }
      log.awaitDurable(last);
    }
    Files.delete(dir.resolve(String.format("binlog.%06d", from.segment() + 1)));
    assertFalse(RecordScan.scan(dir, from, RecordScan.segmentsEnd(dir), (r, frameBytes) -> { }));
  }

  @Test
  void theSegmentsEndIsPastTheNewestSegment() throws IOException {
    assertEquals(1, RecordScan.segmentsEnd(dir.resolve("none")));
    long newest;
    try (LogHarness log = LogHarness.open(dir, new FsyncPolicy.Always(), SEGMENT_BYTES)) {
      log.appendDurably(job(1, "one"));
      newest = log.binlog.position().segment();
    }
    assertEquals(newest + 1, RecordScan.segmentsEnd(dir));
  }
}
