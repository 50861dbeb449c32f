package io.github.vertxbeanstalkd.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.github.vertxbeanstalkd.persistence.LogLayout.Unit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * FORMAT.md, Replay: with {@code binlog.recover} a damaged record costs that record and nothing
 * else; without it, damage refuses start-up naming file and offset, and only the newest segment's
 * last record can be cut as a torn tail. Damage is done to every byte of a log of several segments
 * holding every record type, and the log read back is compared with a model of the records that
 * were not touched.
 */
class RecordByRecordRecoveryTest {
  private static final int SEGMENT_BYTES = 4096;
  private static final int SECTOR_BYTES = DamageCheck.SECTOR_BYTES;
  private final Logger replayLog = (Logger) LoggerFactory.getLogger(Replay.class);
  @TempDir Path dir;
  private DamageCheck damage;

  @BeforeEach
  void quiet() {
    // Tens of thousands of recover-mode warnings would drown the build output.
    replayLog.setLevel(Level.ERROR);
    damage = new DamageCheck(dir);
  }

  @AfterEach
  void loud() {
    replayLog.setLevel(null);
  }

  /** Puts of many body sizes (one larger than a segment) and every kind of change. */
  private LogLayout writeLog() throws IOException {
    try (LogHarness log = LogHarness.open(dir, new FsyncPolicy.Always(), SEGMENT_BYTES)) {
      ModelEngine engine = new ModelEngine(log, SEGMENT_BYTES);
      int[] bodyBytes = {0, 1, 9, 45, 120, 300, 700, 1500, 5000, 33, 2000, 64};
      for (int i = 0; i < bodyBytes.length; i++) {
        engine.put("tube" + i % 3, i, bodyBytes[i]);
      }
      engine.release(1, 7, 0);
      engine.release(2, 8, 30);
      engine.bury(3, 9);
      engine.kick(3);
      engine.note(3, 1, "");
      engine.settings(java.util.Map.of("tube0", new io.github.vertxbeanstalkd.protocol.TubeSettings(5L, null, 2L,
          "dead")));
      engine.reserve(4);
      engine.delete(5);
      engine.bury(6, 1);
      engine.delete(9);
      engine.put("late", 3, 250);
      engine.release(12, 2, 60);
      engine.delete(1);
      engine.awaitDurable();
    }
    LogLayout layout = LogLayout.of(dir);
    assertTrue(layout.files.size() >= 3, layout.files.toString());
    for (Class<?> type : BinlogRecord.class.getPermittedSubclasses()) {
      assertTrue(layout.units.stream().anyMatch(u -> type.isInstance(u.record())), "no " + type);
    }
    RecordModel all = layout.without(List.of());
    RecoveredLog undamaged = Replay.read(dir, false);
    assertEquals(all.jobs(), undamaged.jobs(), "the model reads the log as replay does");
    assertEquals(all.nextJobId(), undamaged.nextJobId());
    return layout;
  }

  @Test
  void aFlippedByteAnywhereCostsOnlyTheRecordHoldingIt() throws IOException {
    LogLayout layout = writeLog();
    for (Path file : layout.files) {
      damage.flipEveryByte(layout, file, Files.readAllBytes(file));
    }
  }

  /** Under fsync always a crash leaves zeros after the newest segment's records (FORMAT.md). */
  @Test
  void aFlippedByteBeforeOrInTheZerosAheadCostsOnlyTheRecordHoldingIt() throws IOException {
    LogLayout layout = writeLog();
    Path newest = layout.newest();
    int recordsEnd = (int) Files.size(newest);
    byte[] withZeros = Arrays.copyOf(Files.readAllBytes(newest), recordsEnd + 4 * SECTOR_BYTES);
    damage.flipEveryByte(layout, newest, withZeros);
    RecordModel all = layout.without(List.of());
    for (int i : new int[] {0, 1, 2, 3, 8, 100, 2 * SECTOR_BYTES, 3 * SECTOR_BYTES, 4 * SECTOR_BYTES - 1}) {
      int at = recordsEnd + i;
      LogHarness.overwrite(newest, at, new byte[] {0x41});
      String where = newest.getFileName() + " byte " + at + " (in the zeros)";
      // FORMAT.md: the file's last 512-byte sector decides whether the end is torn or damaged.
      boolean isInLastSector = at >= (withZeros.length - 1) / SECTOR_BYTES * SECTOR_BYTES;
      if (isInLastSector) {
        BinlogDamageException e =
            assertThrows(BinlogDamageException.class, () -> Replay.read(dir, false), where);
        assertEquals(recordsEnd, e.offset(), where);
      } else {
        RecoveredLog r = Replay.read(dir, false);
        assertEquals(new RecoveredLog.TornTail(newest, recordsEnd, i + 1), r.tornTail(), where);
        assertEquals(all.jobs(), r.jobs(), where);
      }
      RecoveredLog r = Replay.read(dir, true);
      assertEquals(all.jobs(), r.jobs(), where);
      assertEquals(isInLastSector ? 1 : 0, r.damagedRegionsSkipped(), where);
      assertEquals(isInLastSector ? withZeros.length - recordsEnd : 0, r.damagedBytesSkipped(), where);
      LogHarness.overwrite(newest, at, new byte[] {0});
    }
  }

  /**
   * Several bytes at once, as a bad disk sector leaves them: zeros or garbage over every aligned
   * 512-byte sector, but those holding part of the newest segment's last record (a torn tail).
   * Recovery scans forward to the next whole record and loses only the records the sector touched.
   */
  @Test
  void aDamagedSectorCostsOnlyTheRecordsItTouches() throws IOException {
    LogLayout layout = writeLog();
    Random random = new Random(7);
    for (Path file : layout.files) {
      byte[] original = Files.readAllBytes(file);
      for (int sector = 0; sector < original.length; sector += SECTOR_BYTES) {
        for (boolean isGarbage : new boolean[] {false, true}) {
          byte[] damaged = original.clone();
          int to = Math.min(original.length, sector + SECTOR_BYTES);
          for (int i = sector; i < to; i++) {
            damaged[i] = isGarbage ? (byte) random.nextInt() : 0;
          }
          List<Unit> touched = layout.touched(file, original, damaged);
          if (touched.stream().anyMatch(layout::isLastRecord)) {
            continue;
          }
          LogHarness.overwrite(file, sector, Arrays.copyOfRange(damaged, sector, to));
          String where = file.getFileName() + " sector at " + sector + (isGarbage ? ", garbage" : ", zeros");
          damage.assertOnlyLost(layout, touched, false, where);
          LogHarness.overwrite(file, sector, Arrays.copyOfRange(original, sector, to));
        }
      }
    }
  }
}
