package io.github.vertxbeanstalkd.persistence;

import static io.github.vertxbeanstalkd.persistence.LogHarness.job;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.persistence.BinlogRecord.JobSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Under fsync always the writer writes zeros ahead of the records, so a server that stops without
 * cutting its newest segment leaves zeros after the last record (FORMAT.md, "Replay").
 */
class ZeroFilledTailTest {
  private static final FsyncPolicy ALWAYS = new FsyncPolicy.Always();
  private static final int SEGMENT_BYTES = 16 * 1024;
  @TempDir Path dir;
  @TempDir Path crashed;

  /** Writes {@code count} jobs of about 300 bytes: about 50 to a segment. */
  private List<JobSnapshot> writeJobs(int count) throws IOException {
    return LogHarness.writeJobs(dir, SEGMENT_BYTES, count);
  }

  /** What kill -9 leaves: the files as they are while the writer runs, copied before it stops. */
  @Test
  void aServerStoppedWithoutCuttingItsSegmentReplaysWholeAndTheZerosGoQuietly() throws IOException {
    List<JobSnapshot> jobs = new ArrayList<>();
    try (LogHarness log = LogHarness.open(dir, ALWAYS, SEGMENT_BYTES)) {
      for (int id = 1; id <= 60; id++) {
        jobs.add(job(id, ("job " + id + " ").repeat(30)));
        log.appendDurably(jobs.get(id - 1));
      }
      for (Path file : SegmentFile.list(dir)) {
        Files.copy(file, crashed.resolve(file.getFileName()));
      }
    }
    List<Path> files = SegmentFile.list(crashed);
    Path newest = files.get(files.size() - 1);
    assertEquals(SEGMENT_BYTES, Files.size(newest), "the newest segment was zero-filled ahead");
    for (Path older : files.subList(0, files.size() - 1)) {
      assertTrue(Files.size(older) < SEGMENT_BYTES, older + " was cut to its records");
    }
    RecoveredLog r = Replay.read(crashed, false);
    assertEquals(jobs, r.jobs());
    assertEquals(0, r.tornTail().bytesDropped());
    try (LogCapture logs = new LogCapture();
        LogHarness log = LogHarness.open(crashed, ALWAYS, SEGMENT_BYTES)) {
      assertEquals(jobs, log.binlog.takeRecovered().jobs());
      log.awaitDurable(1);
      assertEquals(List.of(), logs.warnings());
      assertEquals(r.tornTail().offset(), Files.size(newest), "cut at the end of its last record");
    }
    RecoveredLog again = Replay.read(crashed, false);
    assertEquals(jobs, again.jobs());
    assertNull(again.tornTail());
  }

  /**
   * A record larger than a segment gets one to itself and passes the zeros ahead; a write-through
   * file pads its last block with zeros, which must not stay behind in a segment that is not the
   * newest (there they are damage).
   */
  @Test
  void aRecordLargerThanASegmentLeavesItsSegmentCutToItsRecords() throws IOException {
    List<JobSnapshot> jobs = List.of(job(1, "small"), job(2, "z".repeat(SEGMENT_BYTES + 1000)), job(3, "after"));
    try (LogHarness log = LogHarness.open(dir, ALWAYS, SEGMENT_BYTES)) {
      jobs.forEach(log::appendDurably);
    }
    Path large = SegmentFile.path(dir, 2);
    long records = SegmentFile.HEADER_BYTES + RecordCodec.frameBytes(new BinlogRecord.HighWater(2))
        + RecordCodec.frameBytes(jobs.get(1));
    assertEquals(records, Files.size(large));
    assertEquals(jobs, Replay.read(dir, false).jobs());
  }

  @Test
  void aTornRecordBeforeTheZerosIsCutWithOneWarningNamingItsBytes() throws IOException {
    List<JobSnapshot> jobs = writeJobs(3);
    Path last = SegmentFile.path(dir, 1);
    long goodSize = Files.size(last);
    LogHarness.appendBytes(last, Arrays.copyOf(LogHarness.frame(job(4, "x".repeat(500))), 100));
    LogHarness.appendBytes(last, new byte[SEGMENT_BYTES]);
    try (LogCapture logs = new LogCapture(); LogHarness log = LogHarness.open(dir, ALWAYS, SEGMENT_BYTES)) {
      RecoveredLog r = log.binlog.takeRecovered();
      assertEquals(jobs, r.jobs());
      assertEquals(new RecoveredLog.TornTail(last, goodSize, 100), r.tornTail());
      assertEquals(goodSize, Files.size(last));
      log.awaitDurable(1);
      assertEquals(1, logs.warnings().size(), logs.warnings().toString());
    }
  }

  @Test
  void aNewestSegmentOfZerosWithoutItsHeaderIsDroppedQuietlyAndItsIndexReused() throws IOException {
    List<JobSnapshot> jobs = writeJobs(2);
    Files.write(SegmentFile.path(dir, 2), new byte[SEGMENT_BYTES]);
    try (LogCapture logs = new LogCapture(); LogHarness log = LogHarness.open(dir, ALWAYS, SEGMENT_BYTES)) {
      assertEquals(jobs, log.binlog.takeRecovered().jobs());
      log.awaitDurable(1);
      assertEquals(2, log.binlog.stats().currentIndex());
      assertEquals(List.of(), logs.warnings());
    }
    assertEquals(jobs, Replay.read(dir, false).jobs());
  }

  @Test
  void aDamagedRecordFollowedByGoodOnesAndZerosStillRefusesStart() throws IOException {
    writeJobs(3);
    Path last = SegmentFile.path(dir, 1);
    byte[] data = Files.readAllBytes(last);
    List<Integer> starts = frameStarts(data);
    int firstJob = starts.get(2);
    data[firstJob + RecordCodec.FRAME_HEADER_BYTES + 20] ^= 1;
    Files.write(last, data);
    LogHarness.appendBytes(last, new byte[SEGMENT_BYTES]);
    BinlogDamageException e = assertThrows(BinlogDamageException.class, () -> Replay.read(dir, false));
    assertEquals(firstJob, e.offset());
  }

  @Test
  void zerosInPlaceOfARecordWithGoodOnesAfterThemAreDamageNotTheEndOfTheLog() throws IOException {
    writeJobs(3);
    Path last = SegmentFile.path(dir, 1);
    byte[] data = Files.readAllBytes(last);
    List<Integer> starts = frameStarts(data);
    int firstJob = starts.get(2);
    Arrays.fill(data, firstJob, starts.get(3), (byte) 0);
    Files.write(last, data);
    LogHarness.appendBytes(last, new byte[SEGMENT_BYTES]);
    BinlogDamageException e = assertThrows(BinlogDamageException.class, () -> Replay.read(dir, false));
    assertEquals(firstJob, e.offset());
  }

  @Test
  void zerosAfterTheRecordsOfAnOlderSegmentAreDamage() throws IOException {
    List<JobSnapshot> jobs = writeJobs(120);
    List<Path> files = SegmentFile.list(dir);
    assertTrue(files.size() >= 3);
    Path older = files.get(1);
    long end = Files.size(older);
    LogHarness.appendBytes(older, new byte[4096]);
    BinlogDamageException e = assertThrows(BinlogDamageException.class, () -> Replay.read(dir, false));
    assertEquals(older, e.file());
    assertEquals(end, e.offset());
    RecoveredLog r = Replay.read(dir, true);
    assertEquals(jobs, r.jobs());
    assertEquals(1, r.damagedRegionsSkipped());
    assertEquals(4096, r.damagedBytesSkipped());
  }

  /** Offsets of the header (0) and of every frame. */
  private static List<Integer> frameStarts(byte[] segment) {
    List<Integer> starts = new ArrayList<>(List.of(0));
    for (int p = SegmentFile.HEADER_BYTES; p < segment.length; ) {
      starts.add(p);
      p += RecordCodec.FRAME_HEADER_BYTES + java.nio.ByteBuffer.wrap(segment).getInt(p);
    }
    return starts;
  }
}
