package io.github.vertxbeanstalkd.persistence;

import static io.github.vertxbeanstalkd.persistence.LogHarness.job;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.persistence.BinlogRecord.Bury;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Delete;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.HighWater;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Kick;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Release;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReceivedFramesTest {
  private static final long SEGMENT_BYTES = 8 * 1024;
  @TempDir Path dir;

  /** Jobs of about 300 bytes and changes of them: several segments' worth at 8 KiB a segment. */
  private static List<BinlogRecord> records() {
    List<BinlogRecord> records = new ArrayList<>();
    records.add(new HighWater(1));
    JobCounters counters = new JobCounters(1, 0, 1, 1, 1);
    for (long id = 1; id <= 200; id++) {
      records.add(job(id, ("job " + id + " ").repeat(30)));
      switch ((int) (id % 5)) {
        case 1 -> records.add(new Release(id, 7, 30, 1_700_000_030_000L, counters));
        case 2 -> records.add(new Bury(id, 9, counters));
        case 3 -> records.add(new Kick(id - 1, counters));
        case 4 -> records.add(new Delete(id - 3));
        default -> { }
      }
    }
    return records;
  }

  @Test
  void framesLoggedAsTheyCameMakeTheSameSegmentsAndReplayAsRecordsEncoded() throws IOException {
    List<BinlogRecord> records = records();
    Path encoded = dir.resolve("encoded");
    Path received = dir.resolve("received");
    try (LogHarness log = LogHarness.open(encoded, new FsyncPolicy.Always(), SEGMENT_BYTES)) {
      long last = 0;
      for (BinlogRecord r : records) {
        last = log.append(r);
      }
      log.awaitDurable(last);
    }
    try (LogHarness log = LogHarness.open(received, new FsyncPolicy.Always(), SEGMENT_BYTES)) {
      long last = 0;
      // In batches as a standby gets them, each crossing segments.
      for (int from = 0; from < records.size(); from += 97) {
        ReceivedFrames batch = ReceivedFrames.decode(
            RecordFrames.encode(records.subList(from, Math.min(records.size(), from + 97))));
        for (int i = 0; i < batch.size(); i++) {
          last = log.binlog.appendFrame(batch.record(i), batch.data(), batch.frameOffset(i));
        }
        log.binlog.flushFrames();
      }
      log.awaitDurable(last);
    }
    List<Path> segments = segmentsOf(encoded);
    assertTrue(segments.size() > 3, "segments " + segments);
    assertEquals(segments, segmentsOf(received).stream().map(p -> encoded.resolve(p.getFileName())).toList());
    for (Path s : segments) {
      assertArrayEquals(Files.readAllBytes(s), Files.readAllBytes(received.resolve(s.getFileName())), s.toString());
    }
    RecoveredLog fromEncoded = Replay.read(encoded, false);
    RecoveredLog fromReceived = Replay.read(received, false);
    assertEquals(fromEncoded.jobs(), fromReceived.jobs());
    assertEquals(fromEncoded.nextJobId(), fromReceived.nextJobId());
    assertTrue(fromReceived.jobs().size() > 100);
  }

  @Test
  void eachRecordLendsItsBodyFromTheFramesAndKnowsWhereItsFrameIs() {
    List<BinlogRecord> records = records().subList(0, 20);
    byte[] data = RecordFrames.encode(records);
    ReceivedFrames frames = ReceivedFrames.decode(data);
    assertEquals(records, frames.records());
    int at = 0;
    for (int i = 0; i < frames.size(); i++) {
      assertEquals(at, frames.frameOffset(i));
      at += RecordCodec.frameBytes(records.get(i));
    }
    assertTrue(frames.record(1) instanceof BinlogRecord.JobSnapshot j && j.body() instanceof SnapshotBody.Lent);
  }

  @Test
  void jobsOfOneTubeShareOneNameAndOthersKeepTheirOwn() {
    byte[] data = RecordFrames.encode(List.of(job(1, "emails", SnapshotState.READY, 1, "a"),
        job(2, "emails", SnapshotState.READY, 1, "b"), job(3, "emailz", SnapshotState.READY, 1, "c"),
        job(4, "e\u00e9", SnapshotState.READY, 1, "d"), job(5, "e\u00e9", SnapshotState.READY, 1, "e")));
    List<BinlogRecord> jobs = ReceivedFrames.decode(data).records();
    String[] tubes = jobs.stream().map(r -> ((BinlogRecord.JobSnapshot) r).tube()).toArray(String[]::new);
    assertEquals(List.of("emails", "emails", "emailz", "e\u00e9", "e\u00e9"), List.of(tubes));
    assertTrue(tubes[0] == tubes[1] && tubes[3] == tubes[4], "one string per run of a tube");
  }

  @Test
  void aDamagedFrameIsRefused() {
    byte[] data = RecordFrames.encode(records().subList(0, 20));
    data[data.length / 2] ^= 1;
    assertThrows(IllegalArgumentException.class, () -> ReceivedFrames.decode(data));
  }

  @Test
  void aFrameThatIsNotTheRecordsIsRefused() throws IOException {
    byte[] data = RecordFrames.encode(List.of(new Delete(1)));
    try (LogHarness log = LogHarness.open(dir, new FsyncPolicy.Always(), SEGMENT_BYTES)) {
      assertThrows(IllegalArgumentException.class, () -> log.binlog.appendFrame(job(1, "x"), data, 0));
    }
  }

  private static List<Path> segmentsOf(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().startsWith("binlog.")).sorted().toList();
    }
  }
}
