package io.github.vertxbeanstalkd.cluster;

import java.util.function.Consumer;

/**
 * The current {@link GroupState} of a replicated node: written by the replication layer, read by
 * the HTTP front and the metrics from any thread. Null state: the node is not replicated.
 */
public final class GroupStatus {
  private volatile GroupState state;
  private volatile Consumer<GroupState> listener = s -> {};
  /** Until when (System.nanoTime) a primary's lease is fresh: it acknowledges changes only until then. */
  private volatile long leaseUntilNanos;
  /** Whether a lease was ever set (states set without one, as in tests, never lapse). */
  private volatile boolean isLeased;

  /**
   * The current state, or null when replication is off. A primary whose lease has lapsed (resumed
   * after a pause, cut off from the lock's consensus) acknowledges nothing and may have been
   * replaced: it says "syncing", not "primary", until it confirms the lock again or steps down.
   */
  public GroupState state() {
    GroupState s = state;
    if (s != null && s.isPrimary() && isLeased && System.nanoTime() - leaseUntilNanos > 0) {
      return s.lapsed();
    }
    return s;
  }

  /** The primary confirmed the lock: its lease is fresh until {@code nanos} (System.nanoTime). */
  public void leaseUntil(long nanos) {
    leaseUntilNanos = nanos;
    isLeased = true;
  }

  public boolean isReplicated() {
    return state != null;
  }

  public void set(GroupState state) {
    this.state = state;
    listener.accept(state);
  }

  /** Told of every new state (for the role metric), on the thread that sets it. */
  public void onChange(Consumer<GroupState> listener) {
    this.listener = listener;
  }
}
