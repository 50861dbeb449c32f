package io.github.vertxbeanstalkd.persistence;

import java.util.ArrayList;
import java.util.List;

/**
 * Records a standby received from its primary, decoded from the frames they came in, each with
 * where its frame lies in those bytes: the standby applies the records and logs each frame as it
 * came ({@link Binlog#appendFrame}), without encoding it again. Job bodies are lent from the bytes
 * ({@link SnapshotBody#lent}), which nothing may change afterwards.
 */
public final class ReceivedFrames {
  private final byte[] data;
  private final List<BinlogRecord> records;
  /** Where each record's frame starts in {@link #data}; one more entry, where the last one ends. */
  private final int[] offsets;

  private ReceivedFrames(byte[] data, List<BinlogRecord> records, int[] offsets) {
    this.data = data;
    this.records = records;
    this.offsets = offsets;
  }

  /**
   * The records of {@code data}, every frame's checksum checked; {@code data} is theirs from now on
   * and must never change.
   *
   * @throws IllegalArgumentException naming the first frame that is damaged or cut short
   */
  public static ReceivedFrames decode(byte[] data) {
    List<BinlogRecord> records = new ArrayList<>();
    int[] offsets = new int[64];
    int n = 0;
    String tube = null;
    for (int at = 0; at < data.length; ) {
      RecordCodec.Frame frame = RecordCodec.readLendingBodies(data, at, data.length, tube);
      if (frame.record() == null) {
        throw new IllegalArgumentException("replication stream: frame at byte " + at + ": " + frame.problem());
      }
      if (n + 2 > offsets.length) {
        offsets = java.util.Arrays.copyOf(offsets, offsets.length * 2);
      }
      offsets[n++] = at;
      records.add(frame.record());
      if (frame.record() instanceof BinlogRecord.JobSnapshot j) {
        tube = j.tube();
      }
      at += frame.frameBytes();
    }
    offsets[n] = data.length;
    return new ReceivedFrames(data, records, offsets);
  }

  public int size() {
    return records.size();
  }

  public BinlogRecord record(int i) {
    return records.get(i);
  }

  /** The records, in order (bodies still lent from the frames' bytes). */
  public List<BinlogRecord> records() {
    return records;
  }

  /** The bytes every frame lies in. */
  public byte[] data() {
    return data;
  }

  /** Where record {@code i}'s frame starts in {@link #data()}. */
  public int frameOffset(int i) {
    return offsets[i];
  }
}
