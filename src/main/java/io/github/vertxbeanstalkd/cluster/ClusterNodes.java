package io.github.vertxbeanstalkd.cluster;

import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.spi.cluster.ClusterManager;
import java.util.List;

/**
 * This node's cluster id and the ids of the nodes in the cluster. Vert.x 5 has no public API for
 * either, and the cluster manager's single node listener belongs to Vert.x itself, so this one
 * class reads the cluster manager through {@link VertxInternal}; everything else uses public APIs.
 */
public final class ClusterNodes {
  private final ClusterManager manager;

  private ClusterNodes(ClusterManager manager) {
    this.manager = manager;
  }

  /** The cluster of {@code vertx}, or null when it is not clustered. */
  public static ClusterNodes of(Vertx vertx) {
    if (vertx.isClustered() && vertx instanceof VertxInternal internal && internal.clusterManager() != null) {
      return new ClusterNodes(internal.clusterManager());
    }
    return null;
  }

  /** This node's id, as the other nodes' cluster managers report it. */
  public String localNodeId() {
    return manager.getNodeId();
  }

  /** The cluster manager itself, for what needs more of it (the replication group's lock). */
  public ClusterManager manager() {
    return manager;
  }

  /** The ids of the nodes in the cluster now; a local read, cheap enough for an event loop. */
  public List<String> nodeIds() {
    return manager.getNodes();
  }
}
