package io.github.vertxbeanstalkd.bench;

import java.util.List;

/**
 * Reserves and deletes a known number of jobs: each connection keeps {@code pipeline} reserves in
 * flight and answers every RESERVED with its delete and, while jobs remain, the next reserve, so
 * no reserve is left waiting at the end. Latency is reserve to RESERVED; an op is a DELETED.
 */
final class ReservePhase extends Phase {
  private final List<BenchConnection> connections;
  private final long jobs;
  private final int pipeline;
  private final Meter meter;
  private long reserved;
  private long reservesInFlight;
  private long deletesInFlight;

  ReservePhase(ErrorLog errors, Meter meter, List<BenchConnection> connections, long jobs,
      int pipeline) {
    super(errors);
    this.meter = meter;
    this.connections = connections;
    this.jobs = jobs;
    this.pipeline = pipeline;
  }

  @Override
  void start(long nowNanos) {
    meter.open(nowNanos, Long.MAX_VALUE);
    for (int i = 0; i < pipeline; i++) {
      for (BenchConnection connection : connections) {
        sendReserve(connection, nowNanos);
      }
    }
  }

  private void sendReserve(BenchConnection connection, long nowNanos) {
    if (reserved + reservesInFlight < jobs) {
      connection.send(Commands.RESERVE, Commands.TAG_RESERVE, nowNanos);
      reservesInFlight++;
    }
  }

  @Override
  public void onReply(BenchConnection connection, ReplyKind kind, long nowNanos) {
    if (connection.replyTag() == Commands.TAG_DELETE) {
      deletesInFlight--;
      if (kind == ReplyKind.DELETED) {
        meter.count(nowNanos);
      } else {
        unexpected(connection, "DELETED");
      }
      return;
    }
    if (connection.replyTag() != Commands.TAG_RESERVE) {
      unexpected(connection, "no reply");
      return;
    }
    reservesInFlight--;
    if (kind == ReplyKind.RESERVED) {
      reserved++;
      meter.sample(nowNanos, nowNanos - connection.replySentAtNanos());
      connection.sendWithId(Commands.DELETE_PREFIX, connection.replyNumber(), Commands.TAG_DELETE,
          nowNanos);
      deletesInFlight++;
    } else {
      unexpected(connection, "RESERVED");
    }
    sendReserve(connection, nowNanos);
  }

  @Override
  boolean isDone() {
    return reservesInFlight == 0 && deletesInFlight == 0;
  }

  @Override
  String describeProgress() {
    return "reserved " + reserved + " of " + jobs + ", reserves in flight " + reservesInFlight
        + ", deletes in flight " + deletesInFlight;
  }
}
