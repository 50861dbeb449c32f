package io.github.vertxbeanstalkd.replication.forwarding;

import io.github.vertxbeanstalkd.cluster.ClusterNodes;
import io.github.vertxbeanstalkd.bus.ConnectionRouting;
import io.github.vertxbeanstalkd.bus.EngineClient;
import io.github.vertxbeanstalkd.bus.SessionHost;
import io.github.vertxbeanstalkd.replication.election.Addresses;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.UUID;

/**
 * The routing of a replicated node's TCP connections (REPLICATION.md, "Every node serves the
 * protocol"): each runs on the group's primary as {@link PrimaryRoute} names it, on this node's
 * engine when this node is the primary, forwarded to the primary's {@link ForwardedSessionsVerticle}
 * otherwise, and moves when the primary changes.
 *
 * @see <a href="{@docRoot}/../spec/REPLICATION.html">REPLICATION.md</a>
 */
public final class Forwarding implements ConnectionRouting {
  private final PrimaryRoute route;
  private final String group;

  /** @param group the replication group's name, which the forwarding addresses carry */
  public Forwarding(PrimaryRoute route, String group) {
    this.route = route;
    this.group = group;
  }

  @Override
  public Future<SessionHost> start(Vertx vertx, EngineClient local) {
    ClusterNodes cluster = ClusterNodes.of(vertx);
    String nodeId = cluster == null ? "local" : cluster.localNodeId();
    String replyAddress = Addresses.of(group, nodeId).node() + ".forwarded." + UUID.randomUUID();
    return RoutedSessions.start(vertx, local, route, replyAddress, nodeId);
  }

  /** Where the primary of {@code term} in {@code group} takes forwarded connections. */
  public static String address(String group, long term) {
    return Addresses.of(group, "").forward(term);
  }
}
