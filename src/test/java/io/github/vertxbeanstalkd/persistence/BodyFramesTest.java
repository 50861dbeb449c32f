package io.github.vertxbeanstalkd.persistence;

import static io.github.vertxbeanstalkd.persistence.LogHarness.job;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Delete;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.HighWater;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.JobSnapshot;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Release;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A job body is client data and may hold bytes that are well-formed frames; replay must never take
 * them for records (FORMAT.md, Replay), neither while recovering from damage to that job's record
 * nor when deciding whether that record is a torn tail.
 */
class BodyFramesTest {
  private static final FsyncPolicy ALWAYS = new FsyncPolicy.Always();
  private static final int SEGMENT_BYTES = 1 << 20;
  @TempDir Path dir;

  /**
   * A body that ends in the frames of a delete of job 1, a put of job 99, a release of job 2 and a
   * high-water mark of 1000, so that in a scan they run right up to the record after the job.
   */
  private static JobSnapshot jobWithFrames(long id, String before, String after) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.write(before.getBytes(StandardCharsets.US_ASCII));
    body.write(LogHarness.frame(new Delete(1)));
    body.write(LogHarness.frame(job(99, "phantom")));
    body.write(LogHarness.frame(new Release(2, 5, 0, 0, new JobCounters(1, 0, 1, 0, 0))));
    body.write(LogHarness.frame(new HighWater(1000)));
    body.write(after.getBytes(StandardCharsets.US_ASCII));
    return new JobSnapshot(id, "default", SnapshotState.READY, 1, 0, 0, 60, 1_700_000_000_000L,
        JobCounters.ZERO, body.toByteArray());
  }

  private void write(BinlogRecord... records) throws IOException {
    try (LogHarness log = LogHarness.open(dir, ALWAYS, SEGMENT_BYTES)) {
      long last = 0;
      for (BinlogRecord r : records) {
        last = log.append(r);
      }
      log.awaitDurable(last);
    }
  }

  @Test
  void framesInTheBodyOfADamagedJobAreNeverReplayed() throws IOException {
    write(job(1, "one"), job(2, "two"), jobWithFrames(3, "three ", ""), job(4, "four"), new Delete(4));
    LogLayout layout = LogLayout.of(dir);
    Logger replayLog = (Logger) LoggerFactory.getLogger(Replay.class);
    replayLog.setLevel(Level.ERROR);
    try {
      Path file = layout.newest();
      new DamageCheck(dir).flipEveryByte(layout, file, Files.readAllBytes(file));
    } finally {
      replayLog.setLevel(null);
    }
  }

  /** What a crash leaves when the job's append was cut short after the frames in its body. */
  @Test
  void aJobCutShortAfterTheFramesInItsBodyIsATornTail() throws IOException {
    write(job(1, "one"), job(2, "two"));
    Path file = SegmentFile.path(dir, 1);
    long goodSize = Files.size(file);
    byte[] frame = LogHarness.frame(jobWithFrames(3, "three ", "x".repeat(500)));
    LogHarness.appendBytes(file, Arrays.copyOf(frame, frame.length - 300));
    RecoveredLog r = Replay.read(dir, false);
    assertEquals(new RecoveredLog.TornTail(file, goodSize, frame.length - 300), r.tornTail());
    assertEquals(List.of(job(1, "one"), job(2, "two")), r.jobs());
    assertEquals(3, r.nextJobId());
  }

  /** Under fsync always: the sectors after the frames in the body never landed, and zeros follow. */
  @Test
  void aJobWhoseLastSectorsAreZerosAfterTheFramesInItsBodyIsATornTail() throws IOException {
    write(job(1, "one"), job(2, "two"));
    Path file = SegmentFile.path(dir, 1);
    long goodSize = Files.size(file);
    byte[] frame = LogHarness.frame(jobWithFrames(3, "three ", "x".repeat(1500)));
    int landed = frame.length - 1200;
    Arrays.fill(frame, landed, frame.length, (byte) 0);
    LogHarness.appendBytes(file, frame);
    LogHarness.appendBytes(file, new byte[4096]);
    RecoveredLog r = Replay.read(dir, false);
    assertEquals(new RecoveredLog.TornTail(file, goodSize, landed), r.tornTail());
    assertEquals(List.of(job(1, "one"), job(2, "two")), r.jobs());
    assertEquals(3, r.nextJobId());
  }
}
