package io.github.vertxbeanstalkd.bench;

import io.vertx.core.AsyncResult;

/**
 * Closed-loop puts over the bus: {@code senders x pipeline} puts outstanding, the next sent as
 * each reply arrives, until the stop time (timed) or until {@code count} puts (counted). The
 * latency of a put is request sent to reply received.
 */
final class BusPutPhase extends BusPhase {
  private final BusCalls calls;
  private final String body;
  private final int outstanding;
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
   * @param insertedIds where to keep the ids of inserted jobs
   */
  BusPutPhase(ErrorLog errors, Meter meter, BusCalls calls, int bodyBytes, int senders, int pipeline,
      long warmupMillis, long durationMillis, long count, LongList insertedIds) {
    super(errors);
    this.meter = meter;
    this.calls = calls;
    this.body = BusBodies.plain(bodyBytes);
    this.outstanding = senders * pipeline;
    this.warmupMillis = warmupMillis;
    this.durationMillis = durationMillis;
    this.count = durationMillis < 0 ? count : Long.MAX_VALUE;
    this.insertedIds = insertedIds;
  }

  @Override
  void start(long nowNanos) {
    stopAtNanos = meter.openAfterWarmup(nowNanos, warmupMillis, durationMillis);
    for (int i = 0; i < outstanding; i++) {
      send(nowNanos);
    }
  }

  private void send(long nowNanos) {
    if (sent < count && nowNanos < stopAtNanos && !isAborted) {
      sent++;
      inFlight++;
      calls.put(body).onComplete(reply -> onReply(reply, nowNanos));
    }
  }

  private void onReply(AsyncResult<Long> reply, long sentAtNanos) {
    long now = System.nanoTime();
    inFlight--;
    answers++;
    if (reply.succeeded()) {
      meter.record(now, now - sentAtNanos);
      insertedIds.add(reply.result());
    } else {
      failed("put", reply.cause());
    }
    send(now);
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
