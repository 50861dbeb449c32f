package io.github.vertxbeanstalkd.bench;

import java.util.List;

/**
 * Producers put jobs stamped with their send time while consumers reserve and delete them. The
 * latency is put-sent to RESERVED-received (one clock: both ends are in this process); an op is
 * a DELETED. Producers pause while {@code maxBacklog} jobs (by default one per consumer) wait
 * unreserved: when consumers are slower, an unbounded queue would make the latency the queue's
 * length over the rate instead of the server's. After the stop time consumers drain the rest.
 */
final class CyclePhase extends Phase {
  private static final int PRODUCER = 0;
  private static final int PARKED_PRODUCER = 1;

  private final List<BenchConnection> producers;
  private final List<BenchConnection> consumers;
  private final byte[] putCommand;
  private final int timestampOffset;
  private final int pipeline;
  private final long maxBacklog;
  private final long warmupMillis;
  private final long durationMillis;
  private final Meter meter;
  private final BenchConnection[] parked;
  private int parkedCount;
  private long stopAtNanos;
  private boolean isStopped;
  private long putsSent;
  private long putsInFlight;
  private long inserted;
  private long reserved;
  private long deleted;

  CyclePhase(ErrorLog errors, Meter meter, List<BenchConnection> producers,
      List<BenchConnection> consumers, int bodyBytes, int pipeline, long maxBacklog,
      long warmupMillis, long durationMillis) {
    super(errors);
    this.meter = meter;
    this.producers = producers;
    this.consumers = consumers;
    this.putCommand = Commands.put(bodyBytes);
    this.timestampOffset = Commands.bodyOffset(bodyBytes);
    this.pipeline = pipeline;
    this.maxBacklog = maxBacklog > 0 ? maxBacklog : consumers.size();
    this.warmupMillis = warmupMillis;
    this.durationMillis = durationMillis;
    this.parked = new BenchConnection[producers.size()];
  }

  @Override
  void start(long nowNanos) {
    stopAtNanos = meter.openAfterWarmup(nowNanos, warmupMillis, durationMillis);
    for (BenchConnection consumer : consumers) {
      consumer.send(Commands.RESERVE, Commands.TAG_RESERVE, nowNanos);
    }
    for (BenchConnection producer : producers) {
      producer.role = PRODUCER;
      producer.counter = 0;
      fill(producer, nowNanos);
    }
  }

  /** Puts until the producer has {@code pipeline} in flight, or parks it on a full backlog. */
  private void fill(BenchConnection producer, long nowNanos) {
    while (!isStopped && producer.counter < pipeline) {
      if (putsSent - reserved >= maxBacklog) {
        if (producer.role != PARKED_PRODUCER) {
          producer.role = PARKED_PRODUCER;
          parked[parkedCount++] = producer;
        }
        return;
      }
      producer.sendPut(putCommand, timestampOffset, nowNanos);
      producer.counter++;
      putsSent++;
      putsInFlight++;
    }
  }

  @Override
  void onTick(long nowNanos) {
    isStopped = nowNanos >= stopAtNanos;
  }

  @Override
  public void onReply(BenchConnection connection, ReplyKind kind, long nowNanos) {
    switch (connection.replyTag()) {
      case Commands.TAG_PUT -> onPutReply(connection, kind, nowNanos);
      case Commands.TAG_RESERVE -> onReserveReply(connection, kind, nowNanos);
      case Commands.TAG_DELETE -> {
        if (kind == ReplyKind.DELETED) {
          deleted++;
          meter.count(nowNanos);
        } else {
          unexpected(connection, "DELETED");
        }
      }
      default -> unexpected(connection, "no reply");
    }
  }

  private void onPutReply(BenchConnection producer, ReplyKind kind, long nowNanos) {
    producer.counter--;
    putsInFlight--;
    if (kind == ReplyKind.INSERTED) {
      inserted++;
    } else {
      unexpected(producer, "INSERTED");
    }
    isStopped = nowNanos >= stopAtNanos;
    fill(producer, nowNanos);
  }

  private void onReserveReply(BenchConnection consumer, ReplyKind kind, long nowNanos) {
    if (kind == ReplyKind.RESERVED) {
      reserved++;
      meter.sample(nowNanos, nowNanos - consumer.replyBodyLong(0));
      consumer.sendWithId(Commands.DELETE_PREFIX, consumer.replyNumber(), Commands.TAG_DELETE,
          nowNanos);
      if (parkedCount > 0) {
        BenchConnection producer = parked[--parkedCount];
        producer.role = PRODUCER;
        fill(producer, nowNanos);
      }
    } else {
      unexpected(consumer, "RESERVED");
    }
    consumer.send(Commands.RESERVE, Commands.TAG_RESERVE, nowNanos);
  }

  /** Done once producers stopped and every inserted job was deleted; consumers' last reserves
   * are left waiting and end with the connections. */
  @Override
  boolean isDone() {
    return isStopped && putsInFlight == 0 && deleted >= inserted;
  }

  @Override
  String describeProgress() {
    return "puts sent " + putsSent + ", inserted " + inserted + ", reserved " + reserved
        + ", deleted " + deleted + ", parked producers " + parkedCount;
  }
}
