package io.github.vertxbeanstalkd.replication.shipping;

import io.github.vertxbeanstalkd.persistence.BinlogRecord;
import io.github.vertxbeanstalkd.persistence.ReceivedFrames;
import io.github.vertxbeanstalkd.persistence.RecordFrames;
import io.vertx.core.buffer.Buffer;
import java.util.List;

/**
 * One message of the record stream from a primary to a standby: a header, then the records as the
 * binlog frames them ({@link RecordFrames}: the log's own encoding and CRC). To change this format,
 * change both ends in one release: nodes of different versions cannot form a group.
 *
 * <pre>
 * kind      1 byte   RESET (drop every job: a copy starts), COPY (a slice of the live jobs as
 *                    snapshots), COPY_END (the copy's last slice: it is complete), LIVE (changes)
 * term      8 bytes  the sender's term; a standby refuses a term older than the newest it saw
 * first     8 bytes  LIVE: the binlog sequence of the first record; otherwise the sequence of the
 *                    latest change logged before the slice (RESET: before the copy) was read
 * last      8 bytes  LIVE: the sequence of the last record; otherwise as first
 * logged    8 bytes  LIVE, COPY, COPY_END: the offset in the term's stream of frames this batch
 *                    ends at (a slice's records are not in the stream: it ends where it was read);
 *                    RESET and heartbeats: the stream bytes logged when it was sent (for the lag)
 * frames    the rest
 * </pre>
 *
 * <p>The batches of one standby, copy and live alike, come in the order the engine produced them:
 * a slice between the changes logged before it and those logged after.
 */
record Batch(byte kind, long term, long first, long last, long logged, Buffer frames) {
  static final byte RESET = 0;
  static final byte COPY = 1;
  static final byte LIVE = 2;
  static final byte COPY_END = 3;
  private static final int HEADER_BYTES = 1 + 4 * 8;

  static Batch of(byte kind, long term, long first, long last, long logged, List<BinlogRecord> records) {
    return new Batch(kind, term, first, last, logged, Buffer.buffer(RecordFrames.encode(records)));
  }

  Buffer encode() {
    return Buffer.buffer(HEADER_BYTES + frames.length()).appendByte(kind).appendLong(term).appendLong(first)
        .appendLong(last).appendLong(logged).appendBuffer(frames);
  }

  /** The batch in {@code b}, whose frames stay in it (a slice, not a copy): {@code b} must never change. */
  static Batch decode(Buffer b) {
    return new Batch(b.getByte(0), b.getLong(1), b.getLong(9), b.getLong(17), b.getLong(25),
        b.slice(HEADER_BYTES, b.length()));
  }

  /**
   * The records, every frame's checksum checked (IllegalArgumentException when damaged), with
   * their frames: one copy of the bytes, which the records' bodies are lent from.
   */
  ReceivedFrames records() {
    return ReceivedFrames.decode(frames.getBytes());
  }

  /** A standby's answer: the offset it applied the stream up to, under {@code term}. */
  static Buffer ack(long term, long applied) {
    return Buffer.buffer(16).appendLong(term).appendLong(applied);
  }
}
