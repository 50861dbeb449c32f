package io.github.vertxbeanstalkd.bench;

import io.vertx.core.AsyncResult;

/**
 * put + reserve + delete over the bus, shaped as the TCP {@link CyclePhase}: producers keep
 * {@code producers x pipeline} puts outstanding, stamped with their send time; each worker (a
 * session of its own) reserves with a timeout, and on a job sends its delete and its next
 * reserve together, as a TCP consumer pipelines them. The latency is put sent to job received;
 * an op is a delete answered. Producers hold back while {@code maxBacklog} jobs wait unreserved.
 */
final class BusCyclePhase extends BusPhase {
  private final BusCalls calls;
  private final String template;
  private final int putSlots;
  private final int workers;
  private final long maxBacklog;
  private final long warmupMillis;
  private final long durationMillis;
  private final Meter meter;
  private long stopAtNanos;
  private boolean isStopped;
  private long putsSent;
  private long putsInFlight;
  private long inserted;
  private long reserved;
  private long deletesInFlight;
  private long deleted;

  BusCyclePhase(ErrorLog errors, Meter meter, BusCalls calls, int bodyBytes, int producers, int pipeline,
      int workers, long maxBacklog, long warmupMillis, long durationMillis) {
    super(errors);
    this.meter = meter;
    this.calls = calls;
    this.template = BusBodies.plain(bodyBytes);
    this.putSlots = producers * pipeline;
    this.workers = workers;
    this.maxBacklog = maxBacklog > 0 ? maxBacklog : workers;
    this.warmupMillis = warmupMillis;
    this.durationMillis = durationMillis;
  }

  @Override
  void start(long nowNanos) {
    stopAtNanos = meter.openAfterWarmup(nowNanos, warmupMillis, durationMillis);
    for (int w = 0; w < workers; w++) {
      reserve(w);
    }
    fill(nowNanos);
  }

  /** Puts while a slot is free and the backlog allows. */
  private void fill(long nowNanos) {
    while (!isStopped && !isAborted && putsInFlight < putSlots && putsSent - reserved < maxBacklog) {
      putsSent++;
      putsInFlight++;
      calls.put(BusBodies.stamped(template, nowNanos)).onComplete(this::onPut);
    }
  }

  private void onPut(AsyncResult<Long> reply) {
    long now = System.nanoTime();
    putsInFlight--;
    answers++;
    if (reply.succeeded()) {
      inserted++;
    } else {
      failed("put", reply.cause());
    }
    isStopped = now >= stopAtNanos;
    fill(now);
  }

  private void reserve(int worker) {
    if (!isAborted) {
      calls.reserve(worker).onComplete(reply -> onReserve(worker, reply));
    }
  }

  private void onReserve(int worker, AsyncResult<ReservedJob> reply) {
    long now = System.nanoTime();
    answers++;
    if (reply.succeeded()) {
      ReservedJob job = reply.result();
      reserved++;
      meter.sample(now, now - job.sentAtNanos());
      deletesInFlight++;
      calls.delete(worker, job.id()).onComplete(this::onDelete);
      reserve(worker);
      isStopped = now >= stopAtNanos;
      fill(now);
    } else if (isStopped && putsInFlight == 0 && reserved >= inserted) {
      // The end: the last reserves time out or end with the session's quit.
    } else {
      failed("reserve", reply.cause());
      reserve(worker);
    }
  }

  private void onDelete(AsyncResult<?> reply) {
    long now = System.nanoTime();
    deletesInFlight--;
    answers++;
    if (reply.succeeded()) {
      deleted++;
      meter.count(now);
    } else {
      failed("delete", reply.cause());
    }
  }

  @Override
  void onTick(long nowNanos) {
    isStopped = nowNanos >= stopAtNanos;
  }

  /** Done once producers stopped and every inserted job was reserved and its delete answered. */
  @Override
  boolean isDone() {
    return isStopped && putsInFlight == 0 && reserved >= inserted && deletesInFlight == 0;
  }

  @Override
  String describeProgress() {
    return "puts sent " + putsSent + ", inserted " + inserted + ", reserved " + reserved + ", deleted " + deleted
        + ", deletes in flight " + deletesInFlight;
  }
}
