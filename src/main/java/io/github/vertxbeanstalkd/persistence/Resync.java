package io.github.vertxbeanstalkd.persistence;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Finds where replay resumes after a bad frame or segment header: right after the damaged record
 * when its end can be told, otherwise at the next offset, tried byte by byte, where a whole valid
 * frame starts.
 *
 * <p>The damaged record is measured before anything is scanned because a job body is client data
 * and may itself hold well-formed frames: a scan starting inside the damaged record would replay
 * them (a delete found in a body would lose an intact job). One damaged byte always leaves the
 * record measurable. If its length agrees with its type (and a job's with its tube and body
 * lengths), the damage is in the checksum or the payload and the length holds. If not, exactly one
 * of those framing fields is wrong, and rebuilding that field from the others makes the checksum
 * match. Either way a valid frame, the end of the file or nothing but zeros must follow the record
 * before replay resumes there; a record damaged further is left to the scan. A rebuilt record is
 * still not replayed: it only says where the next one starts. FORMAT.md, "Replay", has the rules.
 */
final class Resync {
  private static final int FRAME_HEADER_BYTES = RecordCodec.FRAME_HEADER_BYTES;
  /** Where a job's tube length byte lies in its frame; its u32 body length follows the tube. */
  private static final int TUBE_LENGTH_AT = FRAME_HEADER_BYTES + RecordCodec.JOB_FIXED_BYTES - 5;

  private Resync() {}

  /** The offset after a damaged segment header: the first frame, or the next valid one. */
  static int afterHeader(byte[] data) {
    if (data.length >= SegmentFile.HEADER_BYTES && isRecordBoundary(data, SegmentFile.HEADER_BYTES)) {
      return SegmentFile.HEADER_BYTES;
    }
    return nextFrameOrEnd(data, 1);
  }

  /** The offset after the bad frame at {@code offset}: where the next record starts, or the end. */
  static int afterFrame(byte[] data, int offset) {
    long frameBytes = measure(data, offset);
    if (frameBytes > 0) {
      long end = offset + frameBytes;
      if (end > data.length) {
        // A record that runs past the end of the file holds every byte after its start.
        return data.length;
      }
      if (isRecordBoundary(data, (int) end)) {
        return (int) end;
      }
    }
    return nextFrameOrEnd(data, offset + 1);
  }

  /** The first offset from {@code from} on where a valid frame starts, or -1. */
  private static int nextFrame(byte[] data, int from) {
    // A frame's length field is not zero, so none starts after the last byte that is not: the
    // scan skips a preallocated tail of zeros.
    int last = Math.min(data.length - FRAME_HEADER_BYTES - 1, lastNonZero(data));
    for (int q = from; q <= last; q++) {
      if (RecordCodec.isFrameAt(data, q, data.length)) {
        return q;
      }
    }
    return -1;
  }

  /** The offset of the last byte that is not zero, or -1. */
  static int lastNonZero(byte[] data) {
    int i = data.length - 1;
    while (i >= 0 && data[i] == 0) {
      i--;
    }
    return i;
  }

  private static int nextFrameOrEnd(byte[] data, int from) {
    int next = nextFrame(data, from);
    return next < 0 ? data.length : next;
  }

  /** True where a record may start: a valid frame, the end of the file, or zeros up to it. */
  private static boolean isRecordBoundary(byte[] data, int offset) {
    return offset > lastNonZero(data) || RecordCodec.isFrameAt(data, offset, data.length);
  }

  /** The bad frame's size on disk when it can be told (see the class comment), else -1. */
  private static long measure(byte[] data, int offset) {
    if (data.length - offset < FRAME_HEADER_BYTES + 1) {
      return -1;
    }
    int length = ByteBuffer.wrap(data).getInt(offset);
    byte type = data[offset + FRAME_HEADER_BYTES];
    if (RecordCodec.hasFraming(data, offset, length, type, data.length)) {
      return FRAME_HEADER_BYTES + length;
    }
    long rebuilt = switch (type) {
      case RecordCodec.JOB -> RecordCodec.jobLength(data, offset, data.length);
      case RecordCodec.TUBE_SETTINGS, RecordCodec.TUBE_SETTINGS_WITH_EXPIRY ->
          RecordCodec.settingsLength(data, offset, data.length);
      case RecordCodec.DEAD_LETTER_NOTE -> RecordCodec.noteLength(data, offset, data.length);
      default -> RecordCodec.fixedLength(type);
    };
    if (rebuilt > 0 && rebuilt <= RecordCodec.MAX_LENGTH
        && isChecksumWith(data, offset, (int) rebuilt, offset, intBytes((int) rebuilt))) {
      return FRAME_HEADER_BYTES + rebuilt;
    }
    if (isTypeRebuilt(data, offset, length, type) || isJobLengthRebuilt(data, offset, length, type)) {
      return FRAME_HEADER_BYTES + length;
    }
    return -1;
  }

  /** True when another type byte agrees with the length and makes the checksum match. */
  private static boolean isTypeRebuilt(byte[] data, int offset, int length, byte type) {
    for (int t = 0; t < 256; t++) {
      if (t != type && RecordCodec.hasFraming(data, offset, length, (byte) t, data.length)
          && isChecksumWith(data, offset, length, offset + FRAME_HEADER_BYTES, new byte[] {(byte) t})) {
        return true;
      }
    }
    return false;
  }

  /** True when a job's tube or body length, rebuilt from the length field, makes the checksum match. */
  private static boolean isJobLengthRebuilt(byte[] data, int offset, int length, byte type) {
    long frameEnd = (long) offset + FRAME_HEADER_BYTES + length;
    if (type != RecordCodec.JOB || length < RecordCodec.JOB_FIXED_BYTES || frameEnd > data.length) {
      return false;
    }
    int tubeAt = offset + TUBE_LENGTH_AT;
    int storedTube = Byte.toUnsignedInt(data[tubeAt]);
    long body = (long) length - RecordCodec.JOB_FIXED_BYTES - storedTube;
    if (body >= 0 && isChecksumWith(data, offset, length, tubeAt + 1 + storedTube, intBytes((int) body))) {
      return true;
    }
    ByteBuffer b = ByteBuffer.wrap(data);
    for (int tube = 0; tube < 256 && tubeAt + 1 + tube + 4 <= frameEnd; tube++) {
      long bodyThere = Integer.toUnsignedLong(b.getInt(tubeAt + 1 + tube));
      if (tube != storedTube && bodyThere == (long) length - RecordCodec.JOB_FIXED_BYTES - tube
          && isChecksumWith(data, offset, length, tubeAt, new byte[] {(byte) tube})) {
        return true;
      }
    }
    return false;
  }

  /**
   * True when the frame at {@code offset}, taken as {@code length} long and with {@code patch}
   * written over the bytes at {@code patchAt}, matches its stored CRC32C (FORMAT.md: it covers the
   * length field, the type and the payload).
   */
  private static boolean isChecksumWith(byte[] data, int offset, int length, int patchAt, byte[] patch) {
    long frameEnd = (long) offset + FRAME_HEADER_BYTES + length;
    if (length < 1 || frameEnd > data.length) {
      return false;
    }
    CRC32C crc = new CRC32C();
    update(crc, data, offset, offset + 4, patchAt, patch);
    update(crc, data, offset + FRAME_HEADER_BYTES, (int) frameEnd, patchAt, patch);
    return (int) crc.getValue() == ByteBuffer.wrap(data).getInt(offset + 4);
  }

  private static void update(CRC32C crc, byte[] data, int from, int to, int patchAt, byte[] patch) {
    if (patchAt < from || patchAt + patch.length > to) {
      crc.update(data, from, to - from);
      return;
    }
    crc.update(data, from, patchAt - from);
    crc.update(patch);
    crc.update(data, patchAt + patch.length, to - patchAt - patch.length);
  }

  private static byte[] intBytes(int value) {
    return ByteBuffer.allocate(4).putInt(value).array();
  }
}
