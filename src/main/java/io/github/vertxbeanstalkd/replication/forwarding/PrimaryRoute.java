package io.github.vertxbeanstalkd.replication.forwarding;

import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Where this node's TCP connections find the group's primary: this node, another node's forwarding
 * address, or nobody known (null). Written by the replication node, read by the TCP front's hosts
 * on their own contexts; listeners hear every change on the writer's thread.
 */
public final class PrimaryRoute {
  /**
   * The primary of one term.
   *
   * @param nodeId its Vert.x cluster node id, as {@link io.github.vertxbeanstalkd.cluster.ClusterNodes} reads them
   * @param address where it takes forwarded connections' frames (null when it is this node)
   */
  public record Primary(long term, String nodeId, String address) {
    public boolean isLocal() {
      return address == null;
    }
  }

  private final CopyOnWriteArrayList<Consumer<Primary>> listeners = new CopyOnWriteArrayList<>();
  private volatile Primary current;

  /** The primary now, or null when none is known. */
  public Primary current() {
    return current;
  }

  /** Sets the primary (null: none known); listeners hear it if it changed. */
  public void set(Primary primary) {
    if (Objects.equals(primary, current)) {
      return;
    }
    current = primary;
    for (Consumer<Primary> listener : listeners) {
      listener.accept(primary);
    }
  }

  /** {@code listener} hears every change from now on; the returned action stops that. */
  public Runnable listen(Consumer<Primary> listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }
}
