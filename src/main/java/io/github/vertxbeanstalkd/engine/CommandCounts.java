package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.protocol.Counter;

/** The {@code cmd-*} counters of stats: how many times each command ran. */
final class CommandCounts {
  private final long[] counts = new long[Counter.values().length];

  void count(Counter c) {
    counts[c.ordinal()]++;
  }

  long get(Counter c) {
    return counts[c.ordinal()];
  }

  /** A copy for a snapshot, the NONE slot zero. */
  long[] copy() {
    long[] copy = counts.clone();
    copy[Counter.NONE.ordinal()] = 0;
    return copy;
  }
}
