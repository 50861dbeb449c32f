package io.github.vertxbeanstalkd.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.persistence.BinlogRecord.Bury;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Delete;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.HighWater;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.JobSnapshot;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Kick;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Release;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Reserve;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordCodecTest {
  private static final JobCounters COUNTERS = new JobCounters(1, 2, 3, 4, 5);

  /** One of every record type, with extreme values where the protocol allows them. */
  static List<BinlogRecord> everyType() {
    byte[] body = new byte[300];
    for (int i = 0; i < body.length; i++) {
      body[i] = (byte) i;
    }
    return List.of(
        new HighWater(Long.MAX_VALUE),
        new JobSnapshot(1, "default", SnapshotState.READY, 0, 0, 0, 1, 1_700_000_000_000L, JobCounters.ZERO,
            new byte[0]),
        new JobSnapshot(Long.MAX_VALUE, "t".repeat(200), SnapshotState.DELAYED, -1, -1, 1_800_000_000_000L,
            -1,
            1_700_000_000_000L, new JobCounters(-1, -1, -1, -1, -1), body),
        new JobSnapshot(7, "a-b+c/d;e.f$g_h(i)", SnapshotState.BURIED, 5, 0, 0, 60, 0, COUNTERS,
            "\r\n\0x".getBytes(StandardCharsets.US_ASCII)),
        new Delete(42),
        new Release(42, -1, 3600, 1_700_000_003_600L, COUNTERS),
        new Release(42, 0, 0, 0, COUNTERS),
        new Bury(42, 2_000_000_000, COUNTERS),
        new Kick(42, COUNTERS),
        new Reserve(42, COUNTERS),
        new BinlogRecord.TubeSettingsTable(java.util.Map.of()),
        new BinlogRecord.TubeSettingsTable(settings()),
        new BinlogRecord.TubeSettingsTable(settingsWithExpiry()),
        new BinlogRecord.DeadLetterNote(42, -1, ""),
        new BinlogRecord.DeadLetterNote(Long.MAX_VALUE, 7, "t".repeat(200)));
  }

  /** A settings table with every key set, none, and names at their longest. */
  private static java.util.Map<String, io.github.vertxbeanstalkd.protocol.TubeSettings> settings() {
    java.util.Map<String, io.github.vertxbeanstalkd.protocol.TubeSettings> table = new java.util.LinkedHashMap<>();
    table.put("*", new io.github.vertxbeanstalkd.protocol.TubeSettings(null, null, 5L, "dead"));
    table.put("emails", new io.github.vertxbeanstalkd.protocol.TubeSettings(0L, Long.MAX_VALUE, 0xFFFF_FFFFL,
        "x".repeat(200)));
    table.put("t".repeat(200), new io.github.vertxbeanstalkd.protocol.TubeSettings(1L, null, null, null));
    return table;
  }

  /** The table above, plus entries with maxAge and expire: written as a record of type 10. */
  private static java.util.Map<String, io.github.vertxbeanstalkd.protocol.TubeSettings> settingsWithExpiry() {
    java.util.Map<String, io.github.vertxbeanstalkd.protocol.TubeSettings> table = settings();
    table.put("old", new io.github.vertxbeanstalkd.protocol.TubeSettings(null, null, null, null, 3600L, "delete"));
    table.put("older", new io.github.vertxbeanstalkd.protocol.TubeSettings(5L, null, 2L, "d", 0xFFFF_FFFFL, "bury"));
    table.put("how", new io.github.vertxbeanstalkd.protocol.TubeSettings(null, null, null, null, null, "delete"));
    return table;
  }

  @Test
  void onlyATableWithExpiryIsWrittenAsTypeTen() {
    assertEquals(RecordCodec.TUBE_SETTINGS, RecordCodec.typeOf(new BinlogRecord.TubeSettingsTable(settings())));
    assertEquals(RecordCodec.TUBE_SETTINGS_WITH_EXPIRY,
        RecordCodec.typeOf(new BinlogRecord.TubeSettingsTable(settingsWithExpiry())));
  }

  @Test
  void everyRecordTypeSurvivesARoundTrip() {
    for (BinlogRecord r : everyType()) {
      byte[] frame = RecordCodec.encode(r).array();
      assertEquals(RecordCodec.frameBytes(r), frame.length, r.toString());
      RecordCodec.Frame read = RecordCodec.read(frame, 0, frame.length);
      assertEquals(r, read.record(), read.problem());
      assertEquals(frame.length, read.frameBytes());
      assertTrue(RecordCodec.isFrameAt(frame, 0, frame.length));
    }
  }

  @Test
  void framesAreReadAtAnOffsetInsideALargerBuffer() {
    ByteBuffer all = ByteBuffer.allocate(4096);
    for (BinlogRecord r : everyType()) {
      all.put(RecordCodec.encode(r));
    }
    byte[] data = all.array();
    int p = 0;
    for (BinlogRecord r : everyType()) {
      RecordCodec.Frame f = RecordCodec.read(data, p, all.position());
      assertEquals(r, f.record());
      p += f.frameBytes();
    }
    assertEquals(all.position(), p);
  }

  @Test
  void everySingleFlippedByteIsDetectedAndNothingIsDecoded() {
    for (BinlogRecord r : everyType()) {
      byte[] frame = RecordCodec.encode(r).array();
      for (int i = 0; i < frame.length; i++) {
        for (int bit = 0; bit < 8; bit++) {
          byte[] damaged = frame.clone();
          damaged[i] ^= (byte) (1 << bit);
          RecordCodec.Frame f = RecordCodec.read(damaged, 0, damaged.length);
          assertNull(f.record(), r + " byte " + i + " bit " + bit);
          assertNotNull(f.problem());
          assertFalse(RecordCodec.isFrameAt(damaged, 0, damaged.length));
        }
      }
    }
  }

  @Test
  void aCutFrameIsIncompleteNotDamaged() {
    byte[] frame = RecordCodec.encode(LogHarness.job(3, "hello")).array();
    for (int cut = 0; cut < frame.length; cut++) {
      RecordCodec.Frame f = RecordCodec.read(Arrays.copyOf(frame, cut), 0, cut);
      assertNull(f.record());
      assertTrue(f.isIncomplete(), "cut at " + cut);
    }
  }

  @Test
  void zerosAreNotAFrame() {
    byte[] zeros = new byte[64];
    RecordCodec.Frame f = RecordCodec.read(zeros, 0, zeros.length);
    assertNull(f.record());
    assertFalse(f.isIncomplete());
    assertFalse(RecordCodec.isFrameAt(zeros, 0, zeros.length));
  }
}
