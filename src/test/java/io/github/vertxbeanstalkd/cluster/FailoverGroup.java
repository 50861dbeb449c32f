package io.github.vertxbeanstalkd.cluster;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.vertxbeanstalkd.Await;
import io.github.vertxbeanstalkd.TestClient;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A three-node replication group for the failover tests (shared/spec/REPLICATION.md), each node a
 * child JVM through the real launcher on loopback, with the defaults a user gets (minAcks 1,
 * whenTooFewStandbys "serve") set out loud, and the ledger of what clients were told: every job
 * acknowledged with INSERTED, which the group must hold whatever happens to its nodes.
 */
final class FailoverGroup implements AutoCloseable {
  static final long START_MILLIS = 60_000;
  static final long FAILOVER_MILLIS = 30_000;
  static final long REJOIN_MILLIS = 60_000;
  static final String TUBE = "failover";

  private final List<GroupNode> nodes = new ArrayList<>();
  /** Every job acknowledged with INSERTED: id to body. */
  private final Map<Long, String> acknowledged = new LinkedHashMap<>();

  /**
   * Starts three nodes in {@code dir} (the ones started are stopped if one fails); {@link
   * #awaitServing()} waits for their roles.
   */
  static FailoverGroup start(Path dir) throws Exception {
    FailoverGroup group = new FailoverGroup();
    CpLoopbackCluster cluster = new CpLoopbackCluster(3, dir);
    System.out.println("FailoverGroup: Hazelcast configuration: " + cluster.describe());
    JsonObject replication = new JsonObject().put("minAcks", 1).put("whenTooFewStandbys", "serve");
    for (int i = 0; i < 3; i++) {
      group.nodes.add(new GroupNode("node" + (i + 1), dir, cluster.xmlFor(i), replication));
    }
    try {
      for (GroupNode node : group.nodes) {
        node.start();
      }
    } catch (Exception | Error e) {
      group.close();
      throw e;
    }
    return group;
  }

  @Override
  public void close() throws InterruptedException {
    for (GroupNode node : nodes) {
      node.close();
    }
  }

  /** Waits until every node has a role, then for one primary with both standbys caught up; the primary. */
  GroupNode awaitServing() throws InterruptedException {
    awaitRoles();
    return awaitOnePrimaryAndStandbys(START_MILLIS);
  }

  /** Every job acknowledged so far: id to body. */
  Map<Long, String> acknowledged() {
    return acknowledged;
  }

  /** Waits until every node answers /healthz with its role. */
  private void awaitRoles() {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_MILLIS);
    for (GroupNode node : nodes) {
      long leftMillis = Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
      JsonObject health = Await.value(() -> {
        if (!node.isAlive()) {
          fail(node + " exited at start:\n" + node.log());
        }
        return node.healthz().orElse(null);
      }, leftMillis, () -> node + " never answered /healthz:\n" + node.log());
      if (!health.containsKey("role")) {
        fail(node + ": /healthz has no role: " + health.encode());
      }
    }
  }

  /** Waits until one node is primary, serves the queue and has its standbys, and the others are standbys. */
  GroupNode awaitOnePrimaryAndStandbys(long millis) throws InterruptedException {
    return Waits.until(() -> {
      GroupNode primary = null;
      for (GroupNode node : nodes) {
        Optional<JsonObject> h = node.healthz();
        String role = h.map(j -> j.getString("role")).orElse(null);
        if ("primary".equals(role) && primary == null && hasAllStandbys(h.get(), nodes.size() - 1)) {
          primary = node;
        } else if (!"standby".equals(role)) {
          return null;
        }
      }
      return primary != null && primary.servesQueue() ? primary : null;
    }, millis, () -> "no primary with " + (nodes.size() - 1) + " standbys: " + roles(nodes));
  }

  private static boolean hasAllStandbys(JsonObject primaryHealth, int standbys) {
    // shared/spec/REPLICATION.md: a primary's /healthz says "standbys" (caught up) and "degraded".
    return (!primaryHealth.containsKey("standbys") || primaryHealth.getInteger("standbys") >= standbys)
        && !primaryHealth.getBoolean("degraded", false);
  }

  /** Waits for a primary among {@code candidates} newer than {@code oldTerm} whose port serves the queue. */
  static GroupNode awaitNewPrimary(List<GroupNode> candidates, long oldTerm, long faultAtNanos)
      throws InterruptedException {
    GroupNode primary = Waits.until(() -> {
      for (GroupNode node : candidates) {
        Optional<JsonObject> h = node.healthz();
        if (h.isPresent() && "primary".equals(h.get().getString("role"))
            && h.get().getLong("term", Long.MAX_VALUE) > oldTerm && node.servesQueue()) {
          return node;
        }
      }
      return null;
    }, FAILOVER_MILLIS, () -> "no new primary: " + roles(candidates));
    System.out.println("FailoverGroup: " + primary + " became primary "
        + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - faultAtNanos) + " ms after the fault");
    return primary;
  }

  static void awaitRole(GroupNode node, String role, long millis) throws InterruptedException {
    Waits.until(() -> role.equals(node.role()) ? node : null, millis,
        () -> node + " is not " + role + ": " + node.healthz().map(JsonObject::encode).orElse("no /healthz")
            + "\n" + node.log());
  }

  /**
   * Puts {@code count} jobs on {@code primary}, each acknowledged, with an id above every id
   * issued before. A put refused while the group has too few standbys (INTERNAL_ERROR, by
   * {@code whenTooFewStandbys: refuse}, if a test sets it) is sent again until the deadline.
   */
  void putAcknowledged(GroupNode primary, String prefix, int count) {
    long highest = highestAcknowledged();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FAILOVER_MILLIS);
    try (TestClient client = TestClient.open(primary.port(), 5_000)) {
      client.send("use " + TUBE).expect("USING " + TUBE);
      for (int i = 0; i < count; i++) {
        String body = prefix + i;
        long leftMillis = Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
        String reply = Await.value(() -> {
          client.sendPut(0, 0, 120, body.getBytes(StandardCharsets.US_ASCII));
          String r = client.readLine();
          return r.equals("INTERNAL_ERROR") ? null : r;
        }, leftMillis, () -> "put of " + body + " on " + primary + ": INTERNAL_ERROR");
        assertTrue(reply.startsWith("INSERTED "), "put of " + body + " on " + primary + ": " + reply);
        long id = Long.parseLong(reply.substring("INSERTED ".length()));
        assertTrue(id > highest, "id " + id + " for " + body + " is not above " + highest + ", the highest issued");
        highest = id;
        acknowledged.put(id, body);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(primary + " refused a connection", e);
    }
  }

  /** The highest id acknowledged so far, or 0. */
  long highestAcknowledged() {
    return acknowledged.keySet().stream().mapToLong(Long::longValue).max().orElse(0);
  }

  void assertAllAcknowledgedOn(GroupNode primary, String when) {
    for (Map.Entry<Long, String> job : acknowledged.entrySet()) {
      String found = peek(primary, job.getKey());
      if (!job.getValue().equals(found)) {
        fail("acknowledged job " + job.getKey() + " on " + primary + " " + when + ": expected " + job.getValue()
            + " but was " + found + roles(nodes));
      }
    }
  }

  /** The body of job {@code id} on {@code node}, or the reply line when it is not FOUND. */
  static String peek(GroupNode node, long id) {
    try (TestClient client = TestClient.open(node.port(), 5_000)) {
      String header = client.call("peek " + id);
      return header.startsWith("FOUND ") ? new String(client.readBody(header), StandardCharsets.US_ASCII) : header;
    } catch (IOException e) {
      throw new UncheckedIOException(node + " refused a connection", e);
    }
  }

  static long term(GroupNode node) {
    return node.healthz().map(h -> h.getLong("term", -1L)).orElse(-1L);
  }

  List<GroupNode> others(GroupNode node) {
    return nodes.stream().filter(n -> n != node).toList();
  }

  /** Every node's /healthz and the last lines of its log, for a failure's message. */
  String roles() {
    return roles(nodes);
  }

  static String roles(List<GroupNode> group) {
    StringBuilder b = new StringBuilder();
    for (GroupNode node : group) {
      b.append("\n  ").append(node).append(": ").append(node.healthz().map(JsonObject::encode).orElse("no /healthz"));
    }
    for (GroupNode node : group) {
      String[] lines = node.log().split("\n");
      b.append("\n--- last lines of ").append(node).append(":\n")
          .append(String.join("\n", java.util.Arrays.copyOfRange(lines, Math.max(0, lines.length - 25), lines.length)));
    }
    return b.toString();
  }
}
