package io.github.vertxbeanstalkd.persistence;

import java.util.Arrays;

/**
 * Records framed one after the other into one array, as the binlog frames them ({@link RecordFrames}):
 * a primary's copy slice, encoded in the engine's turn straight from each job, with no array of its
 * own per record. One thread only.
 */
public final class FrameBuffer {
  private byte[] data;
  private int length;
  private int records;

  public FrameBuffer(int initialBytes) {
    data = new byte[Math.max(64, initialBytes)];
  }

  /** Frames {@code r} after the frames before it; a job's body is read now, once, into its frame. */
  public void add(BinlogRecord r) {
    int frameBytes = RecordCodec.frameBytes(r);
    if (length + frameBytes > data.length) {
      data = Arrays.copyOf(data, Math.max(length + frameBytes, data.length * 2));
    }
    RecordCodec.encodeInto(r, data, length);
    length += frameBytes;
    records++;
  }

  /** Copies a job's body into an array at an index: a job framed where it is stored, with no copy of its own. */
  public interface BodySource {
    void copyTo(byte[] target, int at);
  }

  /**
   * Frames a job's snapshot from its fields, its body copied in by {@code body}: the frame
   * {@link #add} makes of the same snapshot, with no record, counters or body object made.
   */
  public void addJob(long id, SnapshotState state, int priority, int delaySeconds, int ttrSeconds,
      long readyAtEpochMillis, long createdEpochMillis, int reserves, int timeouts, int releases, int buries,
      int kicks, String tube, int bodyLength, BodySource body) {
    int frameBytes = JobFrame.frameBytes(tube.length(), bodyLength);
    if (length + frameBytes > data.length) {
      data = Arrays.copyOf(data, Math.max(length + frameBytes, data.length * 2));
    }
    int bodyAt = JobFrame.writeFields(data, length, id, state, priority, delaySeconds, ttrSeconds,
        readyAtEpochMillis, createdEpochMillis, reserves, timeouts, releases, buries, kicks, tube, bodyLength);
    body.copyTo(data, bodyAt);
    JobFrame.seal(data, length, frameBytes);
    length += frameBytes;
    records++;
  }

  /** Bytes framed so far. */
  public int length() {
    return length;
  }

  /** Records framed so far. */
  public int records() {
    return records;
  }

  /**
   * The array the frames are in, from index 0 up to {@link #length()}, not a copy: for a caller that
   * copies them on at once, and adds no more frames.
   */
  public byte[] array() {
    return data;
  }
}
