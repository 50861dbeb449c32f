package io.github.vertxbeanstalkd.replication.election;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;

/**
 * Notices that this process stood still (SIGSTOP, a long GC, a frozen VM): a thread that sleeps
 * 100 ms at a time woke much later. For a while after such a pause the members this node thinks
 * gone may be the ones that went on without it, so its own view is not acted on
 * ({@link #isViewStale()}). It also ticks every few seconds, for work retried now and then.
 */
final class PauseWatch {
  private static final long CHECK_MILLIS = 100;
  /** A wake-up this late means the process stood still (far beyond scheduling noise). */
  static final long PAUSED_MILLIS = 1000;
  /** Longer than Hazelcast's merge delay (10 s in cluster-group.xml) and a merge itself. */
  static final long DISTRUST_AFTER_PAUSE_MILLIS = 20_000;
  private static final long TICK_MILLIS = 5_000;

  private final BooleanSupplier isRunning;
  private final LongConsumer paused;
  private final Runnable tick;
  /** Until when (System.nanoTime) this node's own view of the members is not acted on: a moment already past at start. */
  private volatile long distrustViewUntilNanos = System.nanoTime() - 1;

  /**
   * @param isRunning while true, the watch goes on
   * @param paused told of each pause, with its length in milliseconds, on the watch's thread
   * @param tick run every 5 s on the watch's thread
   */
  PauseWatch(BooleanSupplier isRunning, LongConsumer paused, Runnable tick) {
    this.isRunning = isRunning;
    this.paused = paused;
    this.tick = tick;
  }

  /** Starts the watch on a daemon thread of its own. */
  void start() {
    Thread t = new Thread(this::watch, "replication-pause-watch");
    t.setDaemon(true);
    t.start();
  }

  /** This process was paused a moment ago: its view of the members is not the group's yet. */
  boolean isViewStale() {
    return System.nanoTime() - distrustViewUntilNanos < 0;
  }

  private void watch() {
    long last = System.nanoTime();
    long nextTickNanos = last + TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS);
    while (isRunning.getAsBoolean()) {
      try {
        Thread.sleep(CHECK_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
      long now = System.nanoTime();
      if (now - nextTickNanos > 0) {
        nextTickNanos = now + TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS);
        tick.run();
      }
      long gapMillis = (now - last) / 1_000_000;
      last = now;
      if (gapMillis > PAUSED_MILLIS) {
        distrustViewUntilNanos = now + TimeUnit.MILLISECONDS.toNanos(DISTRUST_AFTER_PAUSE_MILLIS);
        paused.accept(gapMillis);
      }
    }
  }
}
