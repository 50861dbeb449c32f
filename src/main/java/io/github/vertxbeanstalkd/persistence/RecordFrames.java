package io.github.vertxbeanstalkd.persistence;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Records framed as the binlog frames them (length, CRC-32C, payload: FORMAT.md), back to back:
 * how a primary ships its log to its standbys, so that the stream is the log's own encoding and
 * its checksum guards the network as it guards the disk. To change this format, change FORMAT.md.
 */
public final class RecordFrames {
  private RecordFrames() {}

  /** The bytes the record's frame takes, in the stream as in the log. */
  public static int frameBytes(BinlogRecord record) {
    return RecordCodec.frameBytes(record);
  }

  /** The records' frames, back to back. */
  public static byte[] encode(List<BinlogRecord> records) {
    int total = 0;
    for (BinlogRecord r : records) {
      total += RecordCodec.frameBytes(r);
    }
    ByteBuffer out = ByteBuffer.allocate(total);
    for (BinlogRecord r : records) {
      out.put(RecordCodec.encode(r));
    }
    return out.array();
  }

  /**
   * The records of {@code data[offset, end)}, every frame's checksum checked.
   *
   * @throws IllegalArgumentException naming the first frame that is damaged or cut short
   */
  public static List<BinlogRecord> decode(byte[] data, int offset, int end) {
    List<BinlogRecord> records = new ArrayList<>();
    for (int at = offset; at < end; ) {
      RecordCodec.Frame frame = RecordCodec.read(data, at, end);
      if (frame.record() == null) {
        throw new IllegalArgumentException("replication stream: frame at byte " + (at - offset) + ": "
            + frame.problem());
      }
      records.add(frame.record());
      at += frame.frameBytes();
    }
    return records;
  }
}
