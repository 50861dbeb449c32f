package io.github.vertxbeanstalkd.replication.shipping;

import io.github.vertxbeanstalkd.engine.ChangeStream;
import io.github.vertxbeanstalkd.engine.CopySlice;
import io.github.vertxbeanstalkd.persistence.BinlogRecord;
import io.github.vertxbeanstalkd.persistence.RecordFrames;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;

/**
 * A primary's engine hands its logged changes here, on the engine's thread; what one engine turn
 * logged leaves as one local message to the replication node, by reference (records are
 * immutable), so the engine never waits for the network and shares no mutable state with it. A
 * copy slice read in between leaves after the changes logged before it and before those logged
 * after it: the node hears changes and slices in the engine's own order, through this one address.
 */
public final class ChangeOutbox implements ChangeStream {
  /** The changes of one engine turn, in order; {@code sequences[i]} is the binlog sequence of {@code records[i]}. */
  public record Changes(long[] sequences, List<BinlogRecord> records) {}

  private final Vertx vertx;
  private final String nodeAddress;
  private long[] sequences = new long[64];
  private List<BinlogRecord> records = new ArrayList<>();
  private boolean isFlushScheduled;
  /** The offset in the stream of frames after the last change handed here (engine thread). */
  private long offset;

  public ChangeOutbox(Vertx vertx, String nodeAddress) {
    this.vertx = vertx;
    this.nodeAddress = nodeAddress;
  }

  /** The stream goes on from {@code streamOffset} (where the one this node followed ended); on the engine thread. */
  public void startAt(long streamOffset) {
    offset = streamOffset;
  }

  /** The offset in the stream after every change handed here so far; on the engine thread. */
  long offset() {
    return offset;
  }

  @Override
  public void appended(long sequence, BinlogRecord record) {
    offset += RecordFrames.frameBytes(record);
    int n = records.size();
    if (n == sequences.length) {
      sequences = java.util.Arrays.copyOf(sequences, n * 2);
    }
    sequences[n] = sequence;
    records.add(record);
    if (!isFlushScheduled) {
      isFlushScheduled = true;
      // After this turn of the engine: every change it logs now goes in one message.
      Context engine = vertx.getOrCreateContext();
      engine.runOnContext(v -> flush());
    }
  }

  @Override
  public void copied(CopySlice slice) {
    flush();
    vertx.eventBus().send(nodeAddress, slice);
  }

  private void flush() {
    isFlushScheduled = false;
    if (records.isEmpty()) {
      return;
    }
    Changes changes = new Changes(java.util.Arrays.copyOf(sequences, records.size()), records);
    records = new ArrayList<>();
    vertx.eventBus().send(nodeAddress, changes);
  }
}
