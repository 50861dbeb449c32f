package io.github.vertxbeanstalkd.persistence;

import io.github.vertxbeanstalkd.persistence.BinlogRecord.Bury;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Delete;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.HighWater;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.JobSnapshot;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Kick;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Release;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Reserve;
import io.github.vertxbeanstalkd.protocol.TubeSettings;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.TubeSettingsTable;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * Writes and reads one record frame: {@code [u32 length][u32 crc32c][u8 type][payload]}, big-endian,
 * where length counts type and payload, and the checksum covers the length field, the type and the
 * payload. The layouts are in FORMAT.md; change them only by its checklist.
 */
final class RecordCodec {
  /** Length and checksum fields. */
  static final int FRAME_HEADER_BYTES = 8;
  static final byte HIGH_WATER = 1;
  static final byte JOB = 2;
  static final byte DELETE = 3;
  static final byte RELEASE = 4;
  static final byte BURY = 5;
  static final byte KICK = 6;
  static final byte RESERVE = 7;
  static final byte TUBE_SETTINGS = 8;
  static final byte DEAD_LETTER_NOTE = 9;
  /**
   * A settings table whose entries also carry maxAge and expire; written only when one of them is
   * set, so a log without expiry stays readable by the builds before (which know type 8 alone).
   */
  static final byte TUBE_SETTINGS_WITH_EXPIRY = 10;
  /** Type, id, reserves base and the tube name's length byte of a dead-letter note. */
  static final int NOTE_FIXED_BYTES = 1 + 8 + 4 + 1;
  /** Type plus the entry count of a settings table. */
  static final int SETTINGS_FIXED_BYTES = 1 + 4;
  /** One settings entry without its names: name length, three i64, dead-letter name length. */
  static final int SETTINGS_ENTRY_BYTES = 1 + 3 * 8 + 1;
  /** What a type 10 entry adds: maxAge (i64, -1 unset) and expire (0 unset, 1 bury, 2 delete). */
  static final int EXPIRY_BYTES = 8 + 1;
  private static final int COUNTERS_BYTES = 5 * 4;
  /** Type plus the fixed part of a job: id, state, pri, delay, ttr, readyAt, created, counters, lengths. */
  static final int JOB_FIXED_BYTES = 1 + 8 + 1 + 4 + 4 + 4 + 8 + 8 + COUNTERS_BYTES + 1 + 4;
  /** Bodies are at most 1 GiB (ServerConfig.MAX_JOB_SIZE_LIMIT); tube names at most 255 bytes. */
  static final int MAX_LENGTH = JOB_FIXED_BYTES + 255 + (1 << 30);

  private RecordCodec() {}

  /** The length field of a record of this type, or -1 when it varies (a job snapshot). */
  static int fixedLength(byte type) {
    return switch (type) {
      case HIGH_WATER, DELETE -> 1 + 8;
      case RELEASE -> 1 + 8 + 4 + 4 + 8 + COUNTERS_BYTES;
      case BURY -> 1 + 8 + 4 + COUNTERS_BYTES;
      case KICK, RESERVE -> 1 + 8 + COUNTERS_BYTES;
      case JOB, TUBE_SETTINGS, DEAD_LETTER_NOTE, TUBE_SETTINGS_WITH_EXPIRY -> -1;
      default -> 0;
    };
  }

  /** Bytes the whole frame takes on disk. */
  static int frameBytes(BinlogRecord r) {
    if (r instanceof JobSnapshot j) {
      return FRAME_HEADER_BYTES + JOB_FIXED_BYTES + tubeLength(j.tube()) + j.body().length();
    }
    if (r instanceof BinlogRecord.DeadLetterNote n) {
      return FRAME_HEADER_BYTES + NOTE_FIXED_BYTES + tubeLength(n.deadLetteredFrom());
    }
    if (r instanceof TubeSettingsTable t) {
      int bytes = FRAME_HEADER_BYTES + SETTINGS_FIXED_BYTES;
      int extra = hasExpiry(t) ? EXPIRY_BYTES : 0;
      for (Map.Entry<String, TubeSettings> e : t.settings().entrySet()) {
        String dead = e.getValue().deadLetterTube();
        bytes += SETTINGS_ENTRY_BYTES + extra + tubeLength(e.getKey()) + (dead == null ? 0 : tubeLength(dead));
      }
      return bytes;
    }
    return FRAME_HEADER_BYTES + fixedLength(typeOf(r));
  }

  static byte typeOf(BinlogRecord r) {
    if (r instanceof JobSnapshot) {
      return JOB;
    } else if (r instanceof Delete) {
      return DELETE;
    } else if (r instanceof Release) {
      return RELEASE;
    } else if (r instanceof Bury) {
      return BURY;
    } else if (r instanceof Kick) {
      return KICK;
    } else if (r instanceof Reserve) {
      return RESERVE;
    } else if (r instanceof TubeSettingsTable t) {
      return hasExpiry(t) ? TUBE_SETTINGS_WITH_EXPIRY : TUBE_SETTINGS;
    } else if (r instanceof BinlogRecord.DeadLetterNote) {
      return DEAD_LETTER_NOTE;
    }
    return HIGH_WATER;
  }

  /** The whole frame, ready to write (position 0, limit at its end). */
  static ByteBuffer encode(BinlogRecord r) {
    byte[] frame = new byte[frameBytes(r)];
    encodeInto(r, frame, 0);
    return ByteBuffer.wrap(frame);
  }

  /** Writes the whole frame into {@code target} at {@code at}; it takes {@link #frameBytes} bytes there. */
  static void encodeInto(BinlogRecord r, byte[] target, int at) {
    byte type = typeOf(r);
    int frameBytes = frameBytes(r);
    ByteBuffer b = ByteBuffer.wrap(target, at, frameBytes).slice();
    b.putInt(frameBytes - FRAME_HEADER_BYTES).putInt(0).put(type);
    if (r instanceof JobSnapshot j) {
      b.putLong(j.id()).put((byte) j.state().code()).putInt(j.priority()).putInt(j.delaySeconds())
          .putInt(j.ttrSeconds()).putLong(j.readyAtEpochMillis()).putLong(j.createdEpochMillis());
      putCounters(b, j.counters());
      putTube(b, j.tube());
      b.putInt(j.body().length());
      // The body's one copy into the frame.
      j.body().copyTo(b);
    } else if (r instanceof Delete d) {
      b.putLong(d.id());
    } else if (r instanceof Release rel) {
      b.putLong(rel.id()).putInt(rel.priority()).putInt(rel.delaySeconds()).putLong(rel.readyAtEpochMillis());
      putCounters(b, rel.counters());
    } else if (r instanceof Bury bury) {
      b.putLong(bury.id()).putInt(bury.priority());
      putCounters(b, bury.counters());
    } else if (r instanceof Kick k) {
      putCounters(b.putLong(k.id()), k.counters());
    } else if (r instanceof Reserve res) {
      putCounters(b.putLong(res.id()), res.counters());
    } else if (r instanceof HighWater h) {
      b.putLong(h.nextJobId());
    } else if (r instanceof BinlogRecord.DeadLetterNote n) {
      b.putLong(n.id()).putInt(n.reservesBase());
      putTube(b, n.deadLetteredFrom());
    } else if (r instanceof TubeSettingsTable t) {
      boolean withExpiry = type == TUBE_SETTINGS_WITH_EXPIRY;
      b.putInt(t.settings().size());
      for (Map.Entry<String, TubeSettings> e : t.settings().entrySet()) {
        TubeSettings s = e.getValue();
        putTube(b, e.getKey());
        b.putLong(unsetAsMinusOne(s.maxJobs())).putLong(unsetAsMinusOne(s.maxBytes()))
            .putLong(unsetAsMinusOne(s.maxReserves()));
        putTube(b, s.deadLetterTube() == null ? "" : s.deadLetterTube());
        if (withExpiry) {
          b.putLong(unsetAsMinusOne(s.maxAge()));
          b.put(s.expire() == null ? 0 : TubeSettings.DELETE.equals(s.expire()) ? (byte) 2 : (byte) 1);
        }
      }
    }
    b.putInt(4, checksum(target, at, frameBytes));
  }

  /**
   * Reads the frame at {@code offset} of {@code data[0, end)}: a record, or why there is none.
   * Never throws on bad input: damage is an outcome, not a bug.
   */
  static Frame read(byte[] data, int offset, int end) {
    return read(data, offset, end, false, null);
  }

  /**
   * {@link #read}, but a job's body is lent from {@code data} ({@link SnapshotBody#lent}) instead
   * of copied: for a replay, whose target stores each body before {@code data} changes.
   */
  static Frame readLendingBodies(byte[] data, int offset, int end) {
    return read(data, offset, end, true, null);
  }

  /**
   * {@link #readLendingBodies}, where a job of tube {@code tubeHint} (the previous job's, say) gets
   * that very string instead of one of its own: a run of jobs of one tube makes no string per job.
   */
  static Frame readLendingBodies(byte[] data, int offset, int end, String tubeHint) {
    return read(data, offset, end, true, tubeHint);
  }

  private static Frame read(byte[] data, int offset, int end, boolean isBodyLent, String tubeHint) {
    if (end - offset < FRAME_HEADER_BYTES) {
      return Frame.incomplete("only " + (end - offset) + " bytes left for a record header");
    }
    ByteBuffer b = ByteBuffer.wrap(data, offset, end - offset).slice();
    int length = b.getInt(0);
    if (length < 1 || length > MAX_LENGTH) {
      return Frame.damaged("impossible record length " + Integer.toUnsignedString(length));
    }
    if ((long) end - offset - FRAME_HEADER_BYTES < length) {
      return Frame.incomplete("record of " + length + " bytes runs past the end of the file");
    }
    byte type = b.get(FRAME_HEADER_BYTES);
    int fixed = fixedLength(type);
    if (fixed == 0 || (fixed > 0 && fixed != length) || (fixed < 0 && length < minLength(type))) {
      return Frame.damaged("record type " + type + " with length " + length);
    }
    if (checksum(data, offset, FRAME_HEADER_BYTES + length) != b.getInt(4)) {
      return Frame.damaged("checksum mismatch");
    }
    b.position(FRAME_HEADER_BYTES + 1).limit(FRAME_HEADER_BYTES + length);
    BinlogRecord r = decode(type, b, isBodyLent ? data : null, offset, tubeHint);
    return r == null ? Frame.damaged("inconsistent payload of record type " + type)
        : Frame.of(r, FRAME_HEADER_BYTES + length);
  }

  /** True if a frame with a valid checksum starts at {@code offset}; cheap checks first. */
  static boolean isFrameAt(byte[] data, int offset, int end) {
    if (end - offset < FRAME_HEADER_BYTES + 1) {
      return false;
    }
    int length = ByteBuffer.wrap(data).getInt(offset);
    return length <= end - offset - FRAME_HEADER_BYTES
        && hasFraming(data, offset, length, data[offset + FRAME_HEADER_BYTES], end)
        && read(data, offset, end).record() != null;
  }

  /**
   * True when {@code length} is possible for {@code type}: the type's fixed length, or for a job
   * the fixed part plus the tube and body lengths stored in the frame at {@code offset}. Says
   * nothing about the checksum, nor whether the frame fits before {@code end}.
   */
  static boolean hasFraming(byte[] data, int offset, int length, byte type, int end) {
    if (length < 1 || length > MAX_LENGTH) {
      return false;
    }
    int fixed = fixedLength(type);
    if (type == TUBE_SETTINGS || type == TUBE_SETTINGS_WITH_EXPIRY) {
      return settingsLength(data, offset, end) == length;
    }
    if (type == DEAD_LETTER_NOTE) {
      return noteLength(data, offset, end) == length;
    }
    return fixed < 0 ? jobLength(data, offset, end) == length : fixed > 0 && fixed == length;
  }

  /** The shortest length field a record of a variable-length type may have. */
  private static int minLength(byte type) {
    return switch (type) {
      case TUBE_SETTINGS, TUBE_SETTINGS_WITH_EXPIRY -> SETTINGS_FIXED_BYTES;
      case DEAD_LETTER_NOTE -> NOTE_FIXED_BYTES;
      default -> JOB_FIXED_BYTES;
    };
  }

  /** The length field a dead-letter note at {@code offset} should have by its name's length, or -1. */
  static long noteLength(byte[] data, int offset, int end) {
    long nameAt = (long) offset + FRAME_HEADER_BYTES + NOTE_FIXED_BYTES - 1;
    return nameAt >= end ? -1 : NOTE_FIXED_BYTES + Byte.toUnsignedInt(data[(int) nameAt]);
  }

  /**
   * The length field a settings table frame at {@code offset} should have by its entry count and
   * name lengths, or -1 when they run past {@code end}.
   */
  static long settingsLength(byte[] data, int offset, int end) {
    long at = (long) offset + FRAME_HEADER_BYTES + SETTINGS_FIXED_BYTES;
    if (at > end) {
      return -1;
    }
    int extra = data[offset + FRAME_HEADER_BYTES] == TUBE_SETTINGS_WITH_EXPIRY ? EXPIRY_BYTES : 0;
    long count = Integer.toUnsignedLong(ByteBuffer.wrap(data).getInt((int) at - 4));
    for (long i = 0; i < count; i++) {
      if (at >= end) {
        return -1;
      }
      at += 1 + Byte.toUnsignedInt(data[(int) at]) + 3 * 8;
      if (at >= end) {
        return -1;
      }
      at += 1 + Byte.toUnsignedInt(data[(int) at]) + extra;
    }
    return at > end ? -1 : at - offset - FRAME_HEADER_BYTES;
  }

  /** The length field a job frame at {@code offset} should have by its tube and body lengths, or -1. */
  static long jobLength(byte[] data, int offset, int end) {
    long tubeAt = (long) offset + FRAME_HEADER_BYTES + JOB_FIXED_BYTES - 5;
    if (tubeAt >= end) {
      return -1;
    }
    int tubeLength = Byte.toUnsignedInt(data[(int) tubeAt]);
    long bodyAt = tubeAt + 1 + tubeLength;
    if (bodyAt + 4 > end) {
      return -1;
    }
    return JOB_FIXED_BYTES + tubeLength + Integer.toUnsignedLong(ByteBuffer.wrap(data).getInt((int) bodyAt));
  }

  /** @param lender the array {@code b} is a slice of, from {@code offset}, to lend a job's body from; or null */
  private static BinlogRecord decode(byte type, ByteBuffer b, byte[] lender, int offset, String tubeHint) {
    if (type == TUBE_SETTINGS || type == TUBE_SETTINGS_WITH_EXPIRY) {
      return decodeSettings(b, type == TUBE_SETTINGS_WITH_EXPIRY);
    }
    long id = b.getLong();
    switch (type) {
      case HIGH_WATER:
        return new HighWater(id);
      case DELETE:
        return new Delete(id);
      case RELEASE:
        return new Release(id, b.getInt(), b.getInt(), b.getLong(), counters(b));
      case BURY:
        return new Bury(id, b.getInt(), counters(b));
      case KICK:
        return new Kick(id, counters(b));
      case RESERVE:
        return new Reserve(id, counters(b));
      case DEAD_LETTER_NOTE: {
        int base = b.getInt();
        String from = name(b);
        return from == null || b.hasRemaining() ? null : new BinlogRecord.DeadLetterNote(id, base, from);
      }
      default:
        return decodeJob(id, b, lender, offset, tubeHint);
    }
  }

  private static JobSnapshot decodeJob(long id, ByteBuffer b, byte[] lender, int offset, String tubeHint) {
    SnapshotState state = SnapshotState.ofCode(b.get());
    int priority = b.getInt();
    int delaySeconds = b.getInt();
    int ttrSeconds = b.getInt();
    long readyAt = b.getLong();
    long created = b.getLong();
    JobCounters counters = counters(b);
    byte[] tube = new byte[Byte.toUnsignedInt(b.get())];
    if (state == null || b.remaining() < tube.length + 4) {
      return null;
    }
    b.get(tube);
    int bodyLength = b.getInt();
    if (bodyLength != b.remaining()) {
      return null;
    }
    SnapshotBody body;
    if (lender != null) {
      body = SnapshotBody.lent(lender, offset + b.position(), bodyLength);
    } else {
      byte[] copy = new byte[bodyLength];
      b.get(copy);
      body = SnapshotBody.of(copy);
    }
    String name = isNamed(tube, tubeHint) ? tubeHint : new String(tube, StandardCharsets.ISO_8859_1);
    return new JobSnapshot(id, name, state, priority, delaySeconds, readyAt, ttrSeconds, created, counters, body);
  }

  /** A settings table; null when its entries do not fill the payload exactly or hold impossible values. */
  private static TubeSettingsTable decodeSettings(ByteBuffer b, boolean withExpiry) {
    long count = Integer.toUnsignedLong(b.getInt());
    if (count * (SETTINGS_ENTRY_BYTES + (withExpiry ? EXPIRY_BYTES : 0)) > b.remaining()) {
      return null;
    }
    Map<String, TubeSettings> table = new LinkedHashMap<>();
    for (long i = 0; i < count; i++) {
      String name = name(b);
      if (name == null || name.isEmpty() || b.remaining() < 3 * 8 + 1) {
        return null;
      }
      Long maxJobs = minusOneAsUnset(b.getLong());
      Long maxBytes = minusOneAsUnset(b.getLong());
      Long maxReserves = minusOneAsUnset(b.getLong());
      String dead = name(b);
      if (dead == null || isNegative(maxJobs) || isNegative(maxBytes) || isNegative(maxReserves)) {
        return null;
      }
      Long maxAge = null;
      String expire = null;
      if (withExpiry) {
        if (b.remaining() < EXPIRY_BYTES) {
          return null;
        }
        maxAge = minusOneAsUnset(b.getLong());
        byte how = b.get();
        if (isNegative(maxAge) || how < 0 || how > 2) {
          return null;
        }
        expire = how == 0 ? null : how == 1 ? TubeSettings.BURY : TubeSettings.DELETE;
      }
      table.put(name, new TubeSettings(maxJobs, maxBytes, maxReserves, dead.isEmpty() ? null : dead, maxAge, expire));
    }
    return b.hasRemaining() ? null : new TubeSettingsTable(table);
  }

  /** A name written by {@link #putTube}, or null when it runs past the payload. */
  private static String name(ByteBuffer b) {
    if (!b.hasRemaining()) {
      return null;
    }
    int length = Byte.toUnsignedInt(b.get());
    if (b.remaining() < length) {
      return null;
    }
    byte[] bytes = new byte[length];
    b.get(bytes);
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }

  private static boolean hasExpiry(TubeSettingsTable t) {
    for (TubeSettings s : t.settings().values()) {
      if (s.hasExpiry()) {
        return true;
      }
    }
    return false;
  }

  private static long unsetAsMinusOne(Long value) {
    return value == null ? -1 : value;
  }

  private static Long minusOneAsUnset(long value) {
    return value == -1 ? null : value;
  }

  private static boolean isNegative(Long value) {
    return value != null && value < 0;
  }

  /** Whether {@code name} is the tube name {@code bytes} spell (one char per byte, as in {@link #putTube}). */
  private static boolean isNamed(byte[] bytes, String name) {
    if (name == null || name.length() != bytes.length) {
      return false;
    }
    for (int i = 0; i < bytes.length; i++) {
      if (name.charAt(i) != (char) (bytes[i] & 0xFF)) {
        return false;
      }
    }
    return true;
  }

  private static void putCounters(ByteBuffer b, JobCounters c) {
    b.putInt(c.reserves()).putInt(c.timeouts()).putInt(c.releases()).putInt(c.buries()).putInt(c.kicks());
  }

  private static JobCounters counters(ByteBuffer b) {
    return new JobCounters(b.getInt(), b.getInt(), b.getInt(), b.getInt(), b.getInt());
  }

  /**
   * Tube names are protocol bytes, which ISO-8859-1 maps to one char each and back: a name's
   * length in bytes is its length in chars, and it is written char by char, without an array per
   * record.
   */
  private static int tubeLength(String tube) {
    if (tube.length() > 255) {
      throw new IllegalArgumentException("tube name longer than 255 bytes: " + tube.length());
    }
    return tube.length();
  }

  private static void putTube(ByteBuffer b, String tube) {
    b.put((byte) tubeLength(tube));
    for (int i = 0; i < tube.length(); i++) {
      b.put((byte) tube.charAt(i));
    }
  }

  /** CRC32C over the length field, then type and payload (skipping the checksum field itself). */
  static int checksum(byte[] data, int frameOffset, int frameBytes) {
    CRC32C crc = new CRC32C();
    crc.update(data, frameOffset, 4);
    crc.update(data, frameOffset + FRAME_HEADER_BYTES, frameBytes - FRAME_HEADER_BYTES);
    return (int) crc.getValue();
  }

  /** The outcome of reading one frame. */
  record Frame(BinlogRecord record, int frameBytes, String problem, boolean isIncomplete) {
    static Frame of(BinlogRecord r, int frameBytes) {
      return new Frame(r, frameBytes, null, false);
    }

    static Frame damaged(String problem) {
      return new Frame(null, 0, problem, false);
    }

    static Frame incomplete(String problem) {
      return new Frame(null, 0, problem, true);
    }
  }
}
