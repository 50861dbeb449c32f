package io.github.vertxbeanstalkd.persistence;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A job snapshot's frame read where it lies in an array ({@link RecordFrames}' layout), field by
 * field, with no record, counters or body object made: a standby places the jobs of a copy straight
 * from the bytes they came in. One view is moved from frame to frame ({@link #at}); the frame must
 * already be known whole and checked ({@link ReceivedFrames#decode}).
 */
public final class JobFrame {
  private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  // Offsets from the frame's start (FORMAT.md, a job record): the 8-byte header, then the type.
  private static final int ID = RecordCodec.FRAME_HEADER_BYTES + 1;
  private static final int STATE = ID + 8;
  private static final int PRIORITY = STATE + 1;
  private static final int DELAY_SECONDS = PRIORITY + 4;
  private static final int TTR_SECONDS = DELAY_SECONDS + 4;
  private static final int READY_AT = TTR_SECONDS + 4;
  private static final int CREATED = READY_AT + 8;
  private static final int COUNTERS = CREATED + 8;
  private static final int TUBE_LENGTH = COUNTERS + 5 * 4;
  private static final int TUBE = TUBE_LENGTH + 1;

  private byte[] data;
  private int at;
  private int frameBytes;
  private int tubeLength;

  /** The bytes of a job frame with a tube name of {@code tubeLength} and a body of {@code bodyLength}. */
  static int frameBytes(int tubeLength, int bodyLength) {
    return TUBE + tubeLength + 4 + bodyLength;
  }

  /**
   * Writes a job frame at {@code at} of {@code target} (room for {@link #frameBytes} bytes), all but
   * its body and checksum: the body goes at the returned index, then {@link #seal} sums the frame.
   * The same bytes as {@link RecordCodec#encodeInto} of the snapshot, with no record made.
   */
  static int writeFields(byte[] target, int at, long id, SnapshotState state, int priority, int delaySeconds,
      int ttrSeconds, long readyAtEpochMillis, long createdEpochMillis, int reserves, int timeouts, int releases,
      int buries, int kicks, String tube, int bodyLength) {
    int tubeLength = tube.length();
    if (tubeLength > 255) {
      throw new IllegalArgumentException("tube name longer than 255 bytes: " + tubeLength);
    }
    INT.set(target, at, frameBytes(tubeLength, bodyLength) - RecordCodec.FRAME_HEADER_BYTES);
    target[at + RecordCodec.FRAME_HEADER_BYTES] = RecordCodec.JOB;
    LONG.set(target, at + ID, id);
    target[at + STATE] = (byte) state.code();
    INT.set(target, at + PRIORITY, priority);
    INT.set(target, at + DELAY_SECONDS, delaySeconds);
    INT.set(target, at + TTR_SECONDS, ttrSeconds);
    LONG.set(target, at + READY_AT, readyAtEpochMillis);
    LONG.set(target, at + CREATED, createdEpochMillis);
    INT.set(target, at + COUNTERS, reserves);
    INT.set(target, at + COUNTERS + 4, timeouts);
    INT.set(target, at + COUNTERS + 8, releases);
    INT.set(target, at + COUNTERS + 12, buries);
    INT.set(target, at + COUNTERS + 16, kicks);
    target[at + TUBE_LENGTH] = (byte) tubeLength;
    for (int i = 0; i < tubeLength; i++) {
      target[at + TUBE + i] = (byte) tube.charAt(i);
    }
    INT.set(target, at + TUBE + tubeLength, bodyLength);
    return at + TUBE + tubeLength + 4;
  }

  /** Writes the checksum of the whole frame of {@code frameBytes} at {@code at}, its body in place. */
  static void seal(byte[] target, int at, int frameBytes) {
    INT.set(target, at + 4, RecordCodec.checksum(target, at, frameBytes));
  }

  /** Whether the job frame at {@code offset} names a state this version knows. */
  static boolean hasKnownState(byte[] data, int offset) {
    return SnapshotState.ofCode(data[offset + STATE]) != null;
  }

  /** This view now reads the job frame of {@code frameBytes} bytes at {@code offset} of {@code data}. */
  JobFrame at(byte[] data, int offset, int frameBytes) {
    this.data = data;
    this.at = offset;
    this.frameBytes = frameBytes;
    this.tubeLength = Byte.toUnsignedInt(data[offset + TUBE_LENGTH]);
    return this;
  }

  /** The array the frame lies in. */
  public byte[] data() {
    return data;
  }

  /** Where the frame starts in {@link #data()}. */
  public int frameOffset() {
    return at;
  }

  public int frameBytes() {
    return frameBytes;
  }

  public long id() {
    return (long) LONG.get(data, at + ID);
  }

  public SnapshotState state() {
    return SnapshotState.ofCode(data[at + STATE]);
  }

  public int priority() {
    return (int) INT.get(data, at + PRIORITY);
  }

  public int delaySeconds() {
    return (int) INT.get(data, at + DELAY_SECONDS);
  }

  public int ttrSeconds() {
    return (int) INT.get(data, at + TTR_SECONDS);
  }

  public long readyAtEpochMillis() {
    return (long) LONG.get(data, at + READY_AT);
  }

  public long createdEpochMillis() {
    return (long) LONG.get(data, at + CREATED);
  }

  /** Counter {@code i} in the order JobCounters lists them: reserves, timeouts, releases, buries, kicks. */
  public int counter(int i) {
    return (int) INT.get(data, at + COUNTERS + 4 * i);
  }

  /** Whether the job's tube is {@code name} (tube names are one byte a char, as the codec writes them). */
  public boolean isTube(String name) {
    if (name.length() != tubeLength) {
      return false;
    }
    for (int i = 0; i < tubeLength; i++) {
      if (name.charAt(i) != (char) (data[at + TUBE + i] & 0xFF)) {
        return false;
      }
    }
    return true;
  }

  /** The job's tube name, as a new string. */
  public String tube() {
    return new String(data, at + TUBE, tubeLength, java.nio.charset.StandardCharsets.ISO_8859_1);
  }

  /** Where the body starts in {@link #data()}. */
  public int bodyOffset() {
    return at + TUBE + tubeLength + 4;
  }

  public int bodyLength() {
    return frameBytes - (TUBE + tubeLength + 4);
  }
}
