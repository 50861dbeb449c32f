package io.github.vertxbeanstalkd.bus;

import java.util.function.Consumer;

/**
 * The current {@link GroupState} of a replicated node: written by the replication layer, read by
 * the HTTP front and the metrics from any thread. Null state: the node is not replicated.
 */
public final class GroupStatus {
  private volatile GroupState state;
  private volatile Consumer<GroupState> listener = s -> {};

  /** The current state, or null when replication is off. */
  public GroupState state() {
    return state;
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
