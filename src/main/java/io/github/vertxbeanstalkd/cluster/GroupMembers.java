package io.github.vertxbeanstalkd.cluster;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The nodes of this node's replication group as each of them last announced itself: every node
 * publishes its {@link GroupState} (role, term, lag) once a second on the group's members address,
 * and keeps what it hears from the others, forgetting a node it has not heard from in a few
 * seconds. For the admin page's nodes table: a node knows only its own state, and a roll call by
 * publication needs no list of peers and no request to a node that may be gone.
 */
public final class GroupMembers extends VerticleBase {
  static final long ANNOUNCE_MILLIS = 1_000;
  /** Five missed announcements: a node stopped, killed or cut off drops out of the table. */
  static final long FORGET_AFTER_MILLIS = 5 * ANNOUNCE_MILLIS;

  private final String address;
  private final GroupStatus status;
  private final Supplier<String> serving;
  private final Map<String, Heard> heard = new ConcurrentHashMap<>();
  private String nodeId;
  private MessageConsumer<JsonObject> consumer;
  private long timerId = -1;

  private record Heard(JsonObject announcement, long atMillis) {}

  /**
   * @param group the replication group's name
   * @param serving where this node serves the protocol and its admin page, as its announcement names it
   */
  public GroupMembers(String group, GroupStatus status, Supplier<String> serving) {
    this.address = "beanstalkd.replication." + group + ".members";
    this.status = status;
    this.serving = serving;
  }

  @Override
  public Future<?> start() {
    ClusterNodes cluster = ClusterNodes.of(vertx);
    nodeId = cluster == null ? UUID.randomUUID().toString() : cluster.localNodeId();
    consumer = vertx.eventBus().<JsonObject>consumer(address, m -> hear(m.body()));
    timerId = vertx.setPeriodic(0, ANNOUNCE_MILLIS, id -> announce());
    return consumer.completion();
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(timerId);
    return consumer.unregister();
  }

  private void announce() {
    GroupState s = status.state();
    if (s == null) {
      return;
    }
    vertx.eventBus().publish(address, new JsonObject().put("node", nodeId).put("role", s.role())
        .put("term", s.term()).put("lagBytes", s.lagBytes()).put("standbys", s.standbys())
        .put("degraded", s.isDegraded()).put("serving", serving.get()));
  }

  private void hear(JsonObject announcement) {
    String node = announcement.getString("node");
    if (node != null) {
      heard.put(node, new Heard(announcement, System.currentTimeMillis()));
    }
  }

  /** The nodes heard from lately, this one marked {@code "self": true}, ordered by where they serve. */
  public JsonArray members() {
    long now = System.currentTimeMillis();
    heard.values().removeIf(h -> now - h.atMillis() > FORGET_AFTER_MILLIS);
    JsonArray nodes = new JsonArray();
    heard.values().stream().map(Heard::announcement)
        .sorted(java.util.Comparator.comparing(a -> a.getString("serving", "")))
        .forEach(a -> nodes.add(a.copy().put("self", nodeId.equals(a.getString("node")))));
    return nodes;
  }
}
