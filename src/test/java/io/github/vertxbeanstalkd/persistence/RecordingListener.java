package io.github.vertxbeanstalkd.persistence;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/** Remembers what a binlog reported to its engine. */
final class RecordingListener implements BinlogListener {
  long durable;
  final List<Throwable> failures = new ArrayList<>();
  final List<Binlog.Health> healthChanges = new ArrayList<>();
  /** Runs at every acknowledgement, to check what is on disk at that moment. */
  LongConsumer onEveryAck = sequence -> {};

  @Override
  public void onDurable(long sequence) {
    if (sequence <= durable) {
      throw new AssertionError("durable sequence went from " + durable + " to " + sequence);
    }
    durable = sequence;
    onEveryAck.accept(sequence);
  }

  @Override
  public void onFailure(Throwable cause) {
    failures.add(cause);
  }

  @Override
  public void onHealthChanged(Binlog.Health health) {
    healthChanges.add(health);
  }
}
