package io.github.vertxbeanstalkd.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failover of a three-node replication group (shared/spec/REPLICATION.md), each node a child JVM
 * through the real launcher on loopback: the primary is killed with SIGKILL, then the new primary
 * is frozen with SIGSTOP until a third node takes over, and resumed; in between, a standby is
 * killed and restarted and must resume from its own log. Every job acknowledged with
 * {@code minAcks: 1} must still be there, ids must go on above every id issued, and the resumed
 * node must step down without acknowledging anything of its own.
 */
class FailoverTest {
  private static final long START_MILLIS = 60_000;
  private static final long FAILOVER_MILLIS = 30_000;
  private static final long REJOIN_MILLIS = 60_000;
  private static final String TUBE = "failover";

  @TempDir
  Path dir;
  private final List<GroupNode> nodes = new ArrayList<>();
  /** Every job acknowledged with INSERTED: id to body. */
  private final Map<Long, String> acknowledged = new LinkedHashMap<>();

  @AfterEach
  void stopNodes() throws InterruptedException {
    for (GroupNode node : nodes) {
      node.close();
    }
  }

  /** Three nodes with the defaults a user gets (minAcks 1, whenTooFewStandbys "serve"), set out loud; the primary. */
  private GroupNode startGroup() throws Exception {
    CpLoopbackCluster cluster = new CpLoopbackCluster(3, dir);
    System.out.println("FailoverTest: Hazelcast configuration: " + cluster.describe());
    JsonObject replication = new JsonObject().put("minAcks", 1).put("whenTooFewStandbys", "serve");
    for (int i = 0; i < 3; i++) {
      nodes.add(new GroupNode("node" + (i + 1), dir, cluster.xmlFor(i), replication));
    }
    for (GroupNode node : nodes) {
      node.start();
    }
    awaitRoles();
    return awaitOnePrimaryAndStandbys(nodes, START_MILLIS);
  }

  @Test
  void acknowledgedJobsSurviveAKilledPrimaryAndAPausedOne() throws Exception {
    GroupNode first = startGroup();
    long firstTerm = term(first);
    putAcknowledged(first, "before-kill-", 50);

    // SIGKILL: a new primary with every acknowledged job, and ids above every id issued.
    long killedAt = System.nanoTime();
    first.kill();
    GroupNode second = awaitNewPrimary(others(first), firstTerm, killedAt);
    long secondTerm = term(second);
    assertAllAcknowledgedOn(second, "after SIGKILL of " + first);
    putAcknowledged(second, "after-kill-", 1);

    // The killed node comes back as a standby; the group again tolerates one fault.
    first.start();
    awaitRole(first, "standby", REJOIN_MILLIS);
    assertSame(second, awaitOnePrimaryAndStandbys(nodes, REJOIN_MILLIS), "the primary changed when " + first
        + " rejoined");
    putAcknowledged(second, "before-stop-", 10);

    // A standby killed and restarted resumes from its own log where the primary's backlog has it.
    first.kill();
    putAcknowledged(second, "while-a-standby-is-down-", 5);
    first.start();
    awaitRole(first, "standby", REJOIN_MILLIS);
    assertTrue(first.logContains("resuming from offset"), first + " took a full copy instead of resuming:\n"
        + first.log());
    assertSame(second, awaitOnePrimaryAndStandbys(nodes, REJOIN_MILLIS), "the primary changed when " + first
        + " restarted");
    long highestBeforeStop = acknowledged.keySet().stream().mapToLong(Long::longValue).max().orElseThrow();

    // SIGSTOP: a put reaches the frozen primary's socket; a third node takes over.
    try (TestClient stale = TestClient.open(second.port(), 60_000)) {
      stale.send("use " + TUBE).expect("USING " + TUBE);
      long stoppedAt = System.nanoTime();
      second.stop();
      byte[] staleBody = "sent-to-the-paused-primary".getBytes(StandardCharsets.US_ASCII);
      stale.sendPut(0, 0, 120, staleBody);
      GroupNode third = awaitNewPrimary(others(second), secondTerm, stoppedAt);
      long thirdTerm = term(third);
      assertAllAcknowledgedOn(third, "after SIGSTOP of " + second);
      putAcknowledged(third, "after-stop-", 1);

      // SIGCONT: the old primary must not have acknowledged the put on its own.
      second.resume();
      String reply = replyOrClose(stale);
      System.out.println("FailoverTest: the put sent to the paused primary got " + reply + " after SIGCONT");
      if (reply != null && reply.startsWith("INSERTED ")) {
        long id = Long.parseLong(reply.substring("INSERTED ".length()));
        assertTrue(id > highestBeforeStop, "the resumed node acknowledged id " + id + ", not above "
            + highestBeforeStop + ", the highest issued before it was paused");
        assertEquals(new String(staleBody, StandardCharsets.US_ASCII), peek(third, id),
            "the resumed node acknowledged job " + id + " that the new primary (term " + thirdTerm + ") does not hold");
        // Forwarded to the new primary and stored there: an acknowledgement like any other.
        acknowledged.put(id, new String(staleBody, StandardCharsets.US_ASCII));
      }
      awaitRole(second, "standby", REJOIN_MILLIS);
      long resumedTerm = term(second);
      assertTrue(resumedTerm < 0 || thirdTerm < 0 || resumedTerm >= thirdTerm,
          "the resumed node follows term " + resumedTerm + ", older than the new primary's " + thirdTerm
              + roles(nodes));
      assertEquals("primary", third.role(), "the new primary kept its role when the old one resumed");
      assertAllAcknowledgedOn(third, "after SIGCONT of " + second);
    }
  }

  @Test
  void aStandbyOfTheOldPrimaryResumesOnTheNewOneWithoutAFullCopy() throws Exception {
    GroupNode first = startGroup();
    long firstTerm = term(first);
    putAcknowledged(first, "before-kill-", 300);

    java.util.Map<GroupNode, Integer> resumesBefore = new java.util.HashMap<>();
    for (GroupNode node : others(first)) {
      resumesBefore.put(node, node.logCount("resuming from offset"));
    }
    long killedAt = System.nanoTime();
    first.kill();
    GroupNode second = awaitNewPrimary(others(first), firstTerm, killedAt);
    GroupNode survivor = others(first).stream().filter(n -> n != second).findFirst().orElseThrow();
    awaitRole(survivor, "standby", REJOIN_MILLIS);
    putAcknowledged(second, "after-kill-", 50);
    assertAllAcknowledgedOn(second, "after SIGKILL of " + first);
    // The survivor followed the old primary: it resumes on the new one from its own offset, both
    // holding the old term's stream up to there, and takes no copy.
    assertTrue(survivor.logCount("resuming from offset") > resumesBefore.get(survivor), survivor
        + " did not resume:\n" + survivor.log());
    assertTrue(second.logContains("resumes from offset"), second + " did not resume it:\n" + second.log());
    assertTrue(!second.logContains("copying the live jobs"), second + " copied the jobs to " + survivor + ":\n"
        + second.log());
    // And it holds what the new primary holds.
    long jobs = acknowledged.size();
    Waits.until(() -> readyJobs(survivor) == jobs && readyJobs(second) == jobs ? true : null, REJOIN_MILLIS,
        () -> "the survivor holds " + readyJobs(survivor) + " jobs, the new primary " + readyJobs(second)
            + ", acknowledged " + jobs);

    // The old primary comes back: it resumes where its own log ends in the new history, or rewinds
    // the tail its log has past it; either way it takes no copy and holds what the new primary holds.
    first.start();
    awaitRole(first, "standby", REJOIN_MILLIS);
    assertTrue(first.logContains("was the primary of term"), first + " did not find its own stream:\n" + first.log());
    assertTrue(!second.logContains("copying the live jobs"), second + " copied the jobs to " + first + ":\n"
        + second.log());
    Waits.until(() -> readyJobs(first) == jobs ? true : null, REJOIN_MILLIS,
        () -> "the old primary holds " + readyJobs(first) + " jobs, acknowledged " + jobs);
  }

  private static long readyJobs(GroupNode node) {
    return node.apiStats().map(s -> s.getLong("current-jobs-ready", -1L)).orElse(-1L);
  }

  /** Waits until every node answers /healthz with its role. */
  private void awaitRoles() throws InterruptedException {
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
  private static GroupNode awaitOnePrimaryAndStandbys(List<GroupNode> group, long millis) throws InterruptedException {
    return Waits.until(() -> {
      GroupNode primary = null;
      for (GroupNode node : group) {
        Optional<JsonObject> h = node.healthz();
        String role = h.map(j -> j.getString("role")).orElse(null);
        if ("primary".equals(role) && primary == null && hasAllStandbys(h.get(), group.size() - 1)) {
          primary = node;
        } else if (!"standby".equals(role)) {
          return null;
        }
      }
      return primary != null && primary.servesQueue() ? primary : null;
    }, millis, () -> "no primary with " + (group.size() - 1) + " standbys: " + roles(group));
  }

  private static boolean hasAllStandbys(JsonObject primaryHealth, int standbys) {
    // shared/spec/REPLICATION.md: a primary's /healthz says "standbys" (caught up) and "degraded".
    return (!primaryHealth.containsKey("standbys") || primaryHealth.getInteger("standbys") >= standbys)
        && !primaryHealth.getBoolean("degraded", false);
  }

  /** Waits for a primary among {@code candidates} newer than {@code oldTerm} whose port serves the queue. */
  private static GroupNode awaitNewPrimary(List<GroupNode> candidates, long oldTerm, long faultAtNanos)
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
    System.out.println("FailoverTest: " + primary + " became primary "
        + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - faultAtNanos) + " ms after the fault");
    return primary;
  }

  private static void awaitRole(GroupNode node, String role, long millis) throws InterruptedException {
    Waits.until(() -> role.equals(node.role()) ? node : null, millis,
        () -> node + " is not " + role + ": " + node.healthz().map(JsonObject::encode).orElse("no /healthz")
            + "\n" + node.log());
  }



  /**
   * Puts {@code count} jobs on {@code primary}, each acknowledged, with an id above every id
   * issued before. A put refused while the group has too few standbys (INTERNAL_ERROR, by
   * {@code whenTooFewStandbys: refuse}, if a test sets it) is sent again until the deadline.
   */
  private void putAcknowledged(GroupNode primary, String prefix, int count) throws InterruptedException {
    long highest = acknowledged.keySet().stream().mapToLong(Long::longValue).max().orElse(0);
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

  private void assertAllAcknowledgedOn(GroupNode primary, String when) {
    for (Map.Entry<Long, String> job : acknowledged.entrySet()) {
      String found = peek(primary, job.getKey());
      if (!job.getValue().equals(found)) {
        fail("acknowledged job " + job.getKey() + " on " + primary + " " + when + ": expected " + job.getValue()
            + " but was " + found + roles(nodes));
      }
    }
  }

  /** The body of job {@code id} on {@code node}, or the reply line when it is not FOUND. */
  private static String peek(GroupNode node, long id) {
    try (TestClient client = TestClient.open(node.port(), 5_000)) {
      String header = client.call("peek " + id);
      return header.startsWith("FOUND ") ? new String(client.readBody(header), StandardCharsets.US_ASCII) : header;
    } catch (IOException e) {
      throw new UncheckedIOException(node + " refused a connection", e);
    }
  }

  /** The next reply line, or null when the connection was closed or reset instead. */
  private static String replyOrClose(TestClient client) {
    try {
      return client.readLineOrNull();
    } catch (UncheckedIOException closed) {
      if (closed.getCause() instanceof java.net.SocketTimeoutException) {
        fail("a put sent to the paused primary got no reply and no close within 60 s of SIGCONT");
      }
      return null;
    }
  }

  private static long term(GroupNode node) {
    return node.healthz().map(h -> h.getLong("term", -1L)).orElse(-1L);
  }

  private List<GroupNode> others(GroupNode node) {
    return nodes.stream().filter(n -> n != node).toList();
  }

  private static String roles(List<GroupNode> group) {
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
