package io.github.vertxbeanstalkd.bench;

import java.util.List;

/**
 * Closed-loop puts: every connection keeps {@code pipeline} puts in flight and sends the next one
 * as each INSERTED arrives, until the stop time (timed) or until {@code count} puts (counted).
 */
final class PutPhase extends Phase {
  private final List<BenchConnection> connections;
  private final byte[] putCommand;
  private final int pipeline;
  private final long warmupMillis;
  private final long durationMillis;
  private final long count;
  private final LongList insertedIds;
  private final Meter meter;
  private long stopAtNanos = Long.MAX_VALUE;
  private long sent;
  private long inFlight;

  /**
   * @param durationMillis measured duration after the warm-up, or -1 to put exactly {@code count}
   * @param insertedIds where to keep the ids of inserted jobs, or null
   */
  PutPhase(ErrorLog errors, Meter meter, List<BenchConnection> connections, int bodyBytes,
      int pipeline, long warmupMillis, long durationMillis, long count, LongList insertedIds) {
    super(errors);
    this.meter = meter;
    this.connections = connections;
    this.putCommand = Commands.put(bodyBytes);
    this.pipeline = pipeline;
    this.warmupMillis = warmupMillis;
    this.durationMillis = durationMillis;
    this.count = durationMillis < 0 ? count : Long.MAX_VALUE;
    this.insertedIds = insertedIds;
  }

  @Override
  void start(long nowNanos) {
    stopAtNanos = meter.openAfterWarmup(nowNanos, warmupMillis, durationMillis);
    for (int i = 0; i < pipeline; i++) {
      for (BenchConnection connection : connections) {
        sendPut(connection, nowNanos);
      }
    }
  }

  private void sendPut(BenchConnection connection, long nowNanos) {
    if (sent < count && nowNanos < stopAtNanos) {
      connection.sendPut(putCommand, -1, nowNanos);
      sent++;
      inFlight++;
    }
  }

  @Override
  public void onReply(BenchConnection connection, ReplyKind kind, long nowNanos) {
    inFlight--;
    if (kind == ReplyKind.INSERTED) {
      meter.record(nowNanos, nowNanos - connection.replySentAtNanos());
      if (insertedIds != null) {
        insertedIds.add(connection.replyNumber());
      }
    } else {
      unexpected(connection, "INSERTED");
    }
    sendPut(connection, nowNanos);
  }

  @Override
  boolean isDone() {
    return inFlight == 0;
  }

  @Override
  String describeProgress() {
    return "puts sent " + sent + ", in flight " + inFlight;
  }
}
