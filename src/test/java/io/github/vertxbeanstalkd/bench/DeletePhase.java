package io.github.vertxbeanstalkd.bench;

import java.util.List;

/** Deletes jobs by id, {@code pipeline} in flight per connection: the cleanup after put cases. */
final class DeletePhase extends Phase {
  private final List<BenchConnection> connections;
  private final LongList ids;
  private final int pipeline;
  private final Meter meter;
  private int next;
  private long inFlight;

  DeletePhase(ErrorLog errors, Meter meter, List<BenchConnection> connections, LongList ids,
      int pipeline) {
    super(errors);
    this.meter = meter;
    this.connections = connections;
    this.ids = ids;
    this.pipeline = pipeline;
  }

  @Override
  void start(long nowNanos) {
    meter.open(nowNanos, Long.MAX_VALUE);
    for (int i = 0; i < pipeline; i++) {
      for (BenchConnection connection : connections) {
        sendDelete(connection, nowNanos);
      }
    }
  }

  private void sendDelete(BenchConnection connection, long nowNanos) {
    if (next < ids.size()) {
      connection.sendWithId(Commands.DELETE_PREFIX, ids.get(next++), Commands.TAG_DELETE, nowNanos);
      inFlight++;
    }
  }

  @Override
  public void onReply(BenchConnection connection, ReplyKind kind, long nowNanos) {
    inFlight--;
    if (kind == ReplyKind.DELETED) {
      meter.record(nowNanos, nowNanos - connection.replySentAtNanos());
    } else {
      unexpected(connection, "DELETED");
    }
    sendDelete(connection, nowNanos);
  }

  @Override
  boolean isDone() {
    return inFlight == 0 && next == ids.size();
  }

  @Override
  String describeProgress() {
    return "deletes sent " + next + " of " + ids.size() + ", in flight " + inFlight;
  }
}
