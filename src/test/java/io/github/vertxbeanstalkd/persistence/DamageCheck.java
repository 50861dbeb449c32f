package io.github.vertxbeanstalkd.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.persistence.LogLayout.Unit;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Damages a log directory on disk and checks what replay makes of it (FORMAT.md, Replay): without
 * recover a refusal naming file and offset, or a torn tail where one may be; with recover exactly
 * the records that were not damaged.
 */
final class DamageCheck {
  static final int SECTOR_BYTES = 512;
  private static final int[] EVERY_BIT_THEN_ALL = {1, 2, 4, 8, 16, 32, 64, 128, 255};
  private final Path dir;

  DamageCheck(Path dir) {
    this.dir = dir;
  }

  /**
   * Writes {@code image} as {@code file} (its records as in {@code layout}), then flips each byte
   * of its records in turn: one bit, a different one by turns; every bit and then all bits of the
   * framing fields, so that a length field ends up a little shorter or longer, far past the end of
   * the file, or impossible, and a type or a job's inner length says something else.
   */
  void flipEveryByte(LogLayout layout, Path file, byte[] image) throws IOException {
    Files.write(file, image);
    int recordsEnd = layout.units.stream().filter(u -> u.file().equals(file))
        .mapToInt(u -> u.offset() + u.bytes()).max().orElseThrow();
    boolean endsInZeros = image.length - recordsEnd >= SECTOR_BYTES;
    for (int position = 0; position < recordsEnd; position++) {
      int i = position;
      Unit hit = layout.units.stream().filter(u -> u.holds(file, i)).findFirst().orElseThrow();
      byte original = image[i];
      int[] masks = isFraming(hit, i, image) ? EVERY_BIT_THEN_ALL : new int[] {1 << (i % 8)};
      for (int mask : masks) {
        image[i] = (byte) (original ^ mask);
        LogHarness.overwrite(file, i, new byte[] {image[i]});
        String where = file.getFileName() + " byte " + i + " ^ " + mask + " in " + hit;
        // FORMAT.md: only the newest segment's last record can be torn, and then only if it runs
        // past the end of the file or the file ends in a zeroed sector.
        boolean isTorn = layout.isLastRecord(hit) && (endsInZeros || runsPastTheEnd(image, hit.offset()));
        assertOnlyLost(layout, List.of(hit), isTorn, where);
      }
      image[i] = original;
      LogHarness.overwrite(file, i, new byte[] {original});
    }
  }

  /** A segment header byte, or a record's length, type, or a job's tube or body length. */
  private static boolean isFraming(Unit u, int i, byte[] image) {
    int at = i - u.offset();
    boolean isLengthOrType = at < 4 || at == RecordCodec.FRAME_HEADER_BYTES;
    if (u.record() == null || isLengthOrType) {
      return true;
    }
    if (!(u.record() instanceof BinlogRecord.JobSnapshot)) {
      return false;
    }
    int tubeAt = RecordCodec.FRAME_HEADER_BYTES + RecordCodec.JOB_FIXED_BYTES - 5;
    int bodyLengthAt = tubeAt + 1 + Byte.toUnsignedInt(image[u.offset() + tubeAt]);
    return at == tubeAt || (at >= bodyLengthAt && at < bodyLengthAt + 4);
  }

  private static boolean runsPastTheEnd(byte[] segment, int frame) {
    long length = Integer.toUnsignedLong(ByteBuffer.wrap(segment).getInt(frame));
    return length >= 1 && length <= RecordCodec.MAX_LENGTH
        && frame + RecordCodec.FRAME_HEADER_BYTES + length > segment.length;
  }

  /**
   * The log on disk is the undamaged one with the {@code lost} units (adjacent, in one segment)
   * damaged: without recover it is refused at the first of them, or cut there as a torn tail; with
   * recover exactly the records not lost come back, and the lost bytes are counted as one region.
   */
  void assertOnlyLost(LogLayout layout, List<Unit> lost, boolean isTorn, String where)
      throws IOException {
    Unit first = lost.get(0);
    RecordModel expected = layout.without(lost);
    if (isTorn) {
      RecoveredLog r = Replay.read(dir, false);
      assertNotNull(r.tornTail(), where);
      assertEquals(first.file(), r.tornTail().file(), where);
      assertEquals(first.offset(), r.tornTail().offset(), where);
      assertEquals(expected.jobs(), r.jobs(), where);
    } else {
      BinlogDamageException e =
          assertThrows(BinlogDamageException.class, () -> Replay.read(dir, false), where);
      assertEquals(first.file(), e.file(), where);
      assertEquals(first.offset(), e.offset(), where);
    }
    RecoveredLog r = Replay.read(dir, true);
    assertEquals(expected.jobs(), r.jobs(), where);
    assertEquals(expected.nextJobId(), r.nextJobId(), where);
    int lostBytes = lost.stream().mapToInt(Unit::bytes).sum();
    assertEquals(isTorn ? 0 : 1, r.damagedRegionsSkipped(), where);
    assertEquals(isTorn ? 0 : lostBytes, r.damagedBytesSkipped(), where);
    if (!isTorn) {
      assertTrue(r.tornTail() == null || r.tornTail().bytesDropped() == 0, where + ": " + r.tornTail());
    }
  }
}
