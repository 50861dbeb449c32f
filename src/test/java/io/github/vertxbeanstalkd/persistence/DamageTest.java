package io.github.vertxbeanstalkd.persistence;

import static io.github.vertxbeanstalkd.persistence.LogHarness.job;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.persistence.BinlogRecord.JobSnapshot;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class DamageTest {
  private static final FsyncPolicy ALWAYS = new FsyncPolicy.Always();
  private static final int SEGMENT_BYTES = 4096;
  @TempDir Path dir;

  /** Writes {@code count} jobs of about 300 bytes: about 13 to a segment. */
  private List<JobSnapshot> writeJobs(int count) throws IOException {
    return LogHarness.writeJobs(dir, SEGMENT_BYTES, count);
  }

  @Test
  void aTornLastRecordIsCutWithOneWarningAndEverythingBeforeIsKept() throws IOException {
    List<JobSnapshot> jobs = writeJobs(3);
    Path last = SegmentFile.path(dir, 1);
    long goodSize = Files.size(last);
    LogHarness.appendBytes(last, Arrays.copyOf(LogHarness.frame(job(4, "x".repeat(500))), 100));
    try (LogCapture logs = new LogCapture(); LogHarness log = LogHarness.open(dir, ALWAYS, SEGMENT_BYTES)) {
      RecoveredLog r = log.binlog.takeRecovered();
      assertEquals(jobs, r.jobs());
      assertEquals(new RecoveredLog.TornTail(last, goodSize, 100), r.tornTail());
      assertEquals(4, r.nextJobId());
      assertEquals(goodSize, Files.size(last));
      log.awaitDurable(1);
      assertEquals(1, logs.warnings().size(), logs.warnings().toString());
      assertTrue(logs.warnings().get(0).contains("torn record at offset " + goodSize));
    }
  }

  @Test
  void aLastRecordEndingInAZeroedSectorIsATornTail() throws IOException {
    List<JobSnapshot> jobs = writeJobs(2);
    Path last = SegmentFile.path(dir, 1);
    byte[] torn = LogHarness.frame(job(3, "y".repeat(1500)));
    Arrays.fill(torn, 200, torn.length, (byte) 0);
    LogHarness.appendBytes(last, torn);
    RecoveredLog r = Replay.read(dir, false);
    assertEquals(jobs, r.jobs());
    assertNotNull(r.tornTail());
  }

  @Test
  void aNewestSegmentCutInsideItsHeaderIsDroppedAndItsIndexReused() throws IOException {
    List<JobSnapshot> jobs = writeJobs(2);
    Files.write(SegmentFile.path(dir, 2), Arrays.copyOf(SegmentFile.header(2).array(), 10));
    try (LogHarness log = LogHarness.open(dir, ALWAYS, SEGMENT_BYTES)) {
      assertEquals(jobs, log.binlog.takeRecovered().jobs());
      log.awaitDurable(1);
      assertEquals(2, log.binlog.stats().currentIndex());
    }
    assertEquals(jobs, Replay.read(dir, false).jobs());
  }

  @Test
  void aFlippedByteAnywhereRefusesStartNamingFileAndOffsetOrWithRecoverIsSkippedAndCounted()
      throws IOException {
    List<JobSnapshot> jobs = writeJobs(20);
    List<Path> files = SegmentFile.list(dir);
    // Thousands of recover-mode warnings would drown the build output.
    Logger replayLog = (Logger) LoggerFactory.getLogger(Replay.class);
    replayLog.setLevel(Level.ERROR);
    try {
      flipEveryByte(jobs, files);
    } finally {
      replayLog.setLevel(null);
    }
  }

  private void flipEveryByte(List<JobSnapshot> jobs, List<Path> files) throws IOException {
    assertEquals(2, files.size());
    for (Path file : files) {
      byte[] original = Files.readAllBytes(file);
      List<Integer> frameStarts = frameStarts(original);
      for (int i = 0; i < original.length; i++) {
        int frame = frameContaining(frameStarts, i);
        // Every byte of headers and frame headers, every third byte of payloads: the build stays quick.
        if (i >= SegmentFile.HEADER_BYTES && i > frame + RecordCodec.FRAME_HEADER_BYTES && i % 3 != 0) {
          continue;
        }
        byte[] damaged = original.clone();
        damaged[i] ^= 0x41;
        Files.write(file, damaged);
        String where = file.getFileName() + " byte " + i;
        int frameEnd = frame == 0 ? SegmentFile.HEADER_BYTES
            : frame + RecordCodec.FRAME_HEADER_BYTES + ByteBuffer.wrap(original).getInt(frame);
        List<JobSnapshot> survivors = new ArrayList<>(jobs);
        if (frame > 0 && RecordCodec.read(original, frame, original.length).record() instanceof JobSnapshot j) {
          survivors.remove(j);
        }
        boolean isLastFrame = file.equals(files.get(1)) && frameEnd == original.length;
        // FORMAT.md: a length field that points past the end of the file, in the newest segment's
        // last record, cannot be told from a torn write.
        boolean isTorn = isLastFrame && runsPastTheEnd(damaged, frame);
        if (isTorn) {
          RecoveredLog r = Replay.read(dir, false);
          assertEquals(new RecoveredLog.TornTail(file, frame, damaged.length - frame), r.tornTail(), where);
          assertEquals(survivors, r.jobs(), where);
        } else {
          BinlogDamageException e =
              assertThrows(BinlogDamageException.class, () -> Replay.read(dir, false), where);
          assertEquals(file, e.file(), where);
          assertEquals(frame, e.offset(), where);
          assertTrue(e.getMessage().contains(file + " at offset " + frame), e.getMessage());
        }
        RecoveredLog r = Replay.read(dir, true);
        assertEquals(survivors, r.jobs(), where + ": exactly the damaged record is lost");
        assertEquals(isTorn ? 0 : 1, r.damagedRegionsSkipped(), where);
        assertEquals(isTorn ? 0 : frameEnd - frame, r.damagedBytesSkipped(), where);
      }
      Files.write(file, original);
    }
  }

  private static boolean runsPastTheEnd(byte[] segment, int frame) {
    long length = Integer.toUnsignedLong(ByteBuffer.wrap(segment).getInt(frame));
    return length >= 1 && length <= RecordCodec.MAX_LENGTH
        && frame + RecordCodec.FRAME_HEADER_BYTES + length > segment.length;
  }

  /** The offset of the frame holding byte {@code i}; 0 for the header. */
  private static int frameContaining(List<Integer> frameStarts, int i) {
    int frame = 0;
    for (int start : frameStarts) {
      if (start <= i) {
        frame = start;
      }
    }
    return frame;
  }

  private static List<Integer> frameStarts(byte[] segment) {
    List<Integer> starts = new ArrayList<>();
    for (int p = SegmentFile.HEADER_BYTES; p < segment.length; ) {
      starts.add(p);
      p += RecordCodec.FRAME_HEADER_BYTES + ByteBuffer.wrap(segment).getInt(p);
    }
    return starts;
  }

  @Test
  void aMissingSegmentBetweenOthersRefusesStartUnlessRecovering() throws IOException {
    List<JobSnapshot> jobs = writeJobs(40);
    assertTrue(SegmentFile.list(dir).size() >= 3);
    Path middle = SegmentFile.path(dir, 2);
    List<JobSnapshot> survivors = new ArrayList<>(jobs);
    survivors.removeAll(LogLayout.of(dir).units.stream()
        .filter(u -> u.file().equals(middle) && u.record() instanceof JobSnapshot)
        .map(u -> (JobSnapshot) u.record()).toList());
    assertTrue(survivors.size() < jobs.size() && survivors.size() > 0, "jobs on both sides of the hole");
    Files.delete(middle);
    BinlogDamageException e = assertThrows(BinlogDamageException.class, () -> Replay.read(dir, false));
    assertEquals(middle, e.file());
    assertEquals(0, e.offset());
    RecoveredLog r = Replay.read(dir, true);
    assertEquals(survivors, r.jobs());
    assertEquals(1, r.damagedRegionsSkipped());
    assertEquals(0, r.damagedBytesSkipped());
  }

  @Test
  void aSegmentOfAnotherFormatVersionIsRefusedEvenWhenRecovering() throws IOException {
    writeJobs(2);
    Path file = SegmentFile.path(dir, 1);
    byte[] data = Files.readAllBytes(file);
    ByteBuffer header = SegmentFile.header(1);
    header.putInt(SegmentFile.MAGIC.length, 2);
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(header.array(), 0, SegmentFile.HEADER_BYTES - 4);
    header.putInt(SegmentFile.HEADER_BYTES - 4, (int) crc.getValue());
    System.arraycopy(header.array(), 0, data, 0, SegmentFile.HEADER_BYTES);
    Files.write(file, data);
    IOException e = assertThrows(IOException.class, () -> Replay.read(dir, true));
    assertFalse(e instanceof BinlogDamageException);
    assertTrue(e.getMessage().contains("format version 2"), e.getMessage());
  }

  @Test
  void aRecoverStartCompactsTheDamageAwaySoTheNextStartIsClean() throws IOException {
    List<JobSnapshot> jobs = writeJobs(30);
    Path first = SegmentFile.path(dir, 1);
    byte[] data = Files.readAllBytes(first);
    data[SegmentFile.HEADER_BYTES + 100] ^= 1;
    Files.write(first, data);
    assertThrows(BinlogDamageException.class, () -> LogHarness.open(dir, ALWAYS, SEGMENT_BYTES));
    List<JobSnapshot> survivors;
    BinlogConfig recover = new BinlogConfig(dir, ALWAYS, SEGMENT_BYTES, true);
    try (LogHarness log = LogHarness.open(recover, new FakeDisk())) {
      RecoveredLog r = log.binlog.takeRecovered();
      assertEquals(1, r.damagedRegionsSkipped());
      survivors = r.jobs();
      // The flipped byte lies in the first job's record, right after the high-water mark.
      assertEquals(jobs.subList(1, jobs.size()), survivors);
      long last = 1;
      for (long[] ids = log.binlog.jobsToMigrate(5); ids.length > 0; ids = log.binlog.jobsToMigrate(5)) {
        for (long id : ids) {
          last = log.append(survivors.stream().filter(j -> j.id() == id).findFirst().get());
        }
      }
      log.awaitDurable(last);
      assertEquals(4, log.binlog.stats().oldestIndex(), "segments 1 to 3 were compacted away");
    }
    assertFalse(Files.exists(first));
    assertEquals(survivors, Replay.read(dir, false).jobs());
  }
}
