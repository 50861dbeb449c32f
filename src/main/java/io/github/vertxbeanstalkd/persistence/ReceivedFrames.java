package io.github.vertxbeanstalkd.persistence;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Frames a standby received from its primary, every one checked whole before any is applied, each
 * with where it lies in those bytes: the standby applies them and logs each frame as it came
 * ({@link Binlog#appendFrame}), without encoding it again. A job's snapshot can be read where it
 * lies ({@link #job}), with no record made, which is how a copy's jobs are placed; any frame can
 * also be decoded into its record ({@link #record}), its body lent from the bytes
 * ({@link SnapshotBody#lent}). Nothing may change the bytes afterwards.
 */
public final class ReceivedFrames {
  private final byte[] data;
  private final int size;
  /** Where each frame starts in {@link #data}; one more entry, where the last one ends. */
  private final int[] offsets;
  private final byte[] types;
  private final JobFrame job = new JobFrame();
  /** The tube name of the job decoded last: a run of jobs of one tube gets one string. */
  private String tubeHint;

  private ReceivedFrames(byte[] data, int size, int[] offsets, byte[] types) {
    this.data = data;
    this.size = size;
    this.offsets = offsets;
    this.types = types;
  }

  /**
   * The frames of {@code data}, every frame's length, type and checksum checked; {@code data} is
   * theirs from now on and must never change.
   *
   * @throws IllegalArgumentException naming the first frame that is damaged or cut short
   */
  public static ReceivedFrames decode(byte[] data) {
    int[] offsets = new int[64];
    byte[] types = new byte[64];
    int n = 0;
    for (int at = 0; at < data.length; ) {
      int frameBytes = checkedFrameBytes(data, at);
      if (n + 2 > offsets.length) {
        offsets = Arrays.copyOf(offsets, offsets.length * 2);
        types = Arrays.copyOf(types, types.length * 2);
      }
      offsets[n] = at;
      types[n++] = data[at + RecordCodec.FRAME_HEADER_BYTES];
      at += frameBytes;
    }
    offsets[n] = data.length;
    return new ReceivedFrames(data, n, offsets, types);
  }

  /** The bytes of the whole frame at {@code at}, once its framing and checksum hold. */
  private static int checkedFrameBytes(byte[] data, int at) {
    String problem = null;
    if (data.length - at < RecordCodec.FRAME_HEADER_BYTES + 1) {
      problem = "only " + (data.length - at) + " bytes left for a record";
    } else {
      int length = (data[at] & 0xFF) << 24 | (data[at + 1] & 0xFF) << 16 | (data[at + 2] & 0xFF) << 8
          | (data[at + 3] & 0xFF);
      byte type = data[at + RecordCodec.FRAME_HEADER_BYTES];
      if (length < 1 || length > data.length - at - RecordCodec.FRAME_HEADER_BYTES) {
        problem = "a record of " + Integer.toUnsignedString(length) + " bytes runs past the end";
      } else if (!RecordCodec.hasFraming(data, at, length, type, data.length)) {
        problem = "record type " + type + " with length " + length;
      } else if (RecordCodec.checksum(data, at, RecordCodec.FRAME_HEADER_BYTES + length)
          != ((data[at + 4] & 0xFF) << 24 | (data[at + 5] & 0xFF) << 16 | (data[at + 6] & 0xFF) << 8
          | (data[at + 7] & 0xFF))) {
        problem = "checksum mismatch";
      } else if (type == RecordCodec.JOB && !JobFrame.hasKnownState(data, at)) {
        problem = "inconsistent payload of record type " + type;
      } else {
        return RecordCodec.FRAME_HEADER_BYTES + length;
      }
    }
    throw new IllegalArgumentException("replication stream: frame at byte " + at + ": " + problem);
  }

  public int size() {
    return size;
  }

  /** Whether frame {@code i} is a job's snapshot. */
  public boolean isJob(int i) {
    return types[i] == RecordCodec.JOB;
  }

  /**
   * Frame {@code i}, a job's snapshot, read where it lies: the one view of these frames, moved to
   * it (a later call moves it on).
   */
  public JobFrame job(int i) {
    if (!isJob(i)) {
      throw new IllegalArgumentException("frame " + i + " is not a job's snapshot");
    }
    return job.at(data, offsets[i], offsets[i + 1] - offsets[i]);
  }

  /** Frame {@code i} decoded (a job's body lent from the frames' bytes). */
  public BinlogRecord record(int i) {
    RecordCodec.Frame frame = RecordCodec.readLendingBodies(data, offsets[i], offsets[i + 1], tubeHint);
    if (frame.record() == null) {
      // Checked when decoded: only a change of the bytes since can get here.
      throw new IllegalStateException("replication stream: frame at byte " + offsets[i] + ": " + frame.problem());
    }
    if (frame.record() instanceof BinlogRecord.JobSnapshot j) {
      tubeHint = j.tube();
    }
    return frame.record();
  }

  /** The records, in order, each decoded (bodies still lent from the frames' bytes). */
  public List<BinlogRecord> records() {
    List<BinlogRecord> records = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      records.add(record(i));
    }
    return records;
  }

  /** The bytes every frame lies in. */
  public byte[] data() {
    return data;
  }

  /** Where frame {@code i} starts in {@link #data()}. */
  public int frameOffset(int i) {
    return offsets[i];
  }
}
