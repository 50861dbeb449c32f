package io.github.vertxbeanstalkd.replication.forwarding;

import io.github.vertxbeanstalkd.cluster.ClusterNodes;
import io.github.vertxbeanstalkd.bus.ConnectionRouting;
import io.github.vertxbeanstalkd.bus.EngineClient;
import io.github.vertxbeanstalkd.bus.SessionHost;
import io.github.vertxbeanstalkd.replication.election.Addresses;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.UUID;
import java.util.concurrent.atomic.LongAdder;

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
  /** Added to on the fronts' event loops, read by scrapes. */
  private final LongAdder forwardedAwaitingReply = new LongAdder();

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
    return RoutedSessions.start(vertx, local, route, replyAddress, nodeId, forwardedAwaitingReply);
  }

  /**
   * The commands this node's TCP connections have forwarded to a primary on another node and not
   * yet had answered; 0 on the primary, whose connections run on its own engine. Any thread.
   */
  public long commandsAwaitingReply() {
    return forwardedAwaitingReply.sum();
  }

  /** Where the primary of {@code term} in {@code group} takes forwarded connections. */
  public static String address(String group, long term) {
    return Addresses.of(group, "").forward(term);
  }
}
