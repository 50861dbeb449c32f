package io.github.vertxbeanstalkd.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The nodes of a replication group as the admin page lists them: two clustered Vert.x on loopback,
 * each announcing its role, term and lag; each lists both, and forgets one that stopped.
 */
class GroupMembersTest {
  private final LoopbackCluster cluster = new LoopbackCluster(2);
  private Vertx one;
  private Vertx two;

  @AfterEach
  void close() {
    for (Vertx v : new Vertx[] {one, two}) {
      if (v != null) {
        await(v.close());
      }
    }
  }

  @Test
  void eachNodeListsTheGroupsNodesAndForgetsOneThatStopped() {
    one = await(cluster.node(0));
    two = await(cluster.node(1));
    GroupStatus primary = new GroupStatus();
    primary.set(new GroupState(GroupState.PRIMARY, 3, 1, false, 0, true, 1, true));
    GroupStatus standby = new GroupStatus();
    standby.set(new GroupState(GroupState.STANDBY, 3, 0, false, 512, true, 0, true));
    GroupMembers onOne = new GroupMembers("g", primary, () -> "127.0.0.1:11300");
    GroupMembers onTwo = new GroupMembers("g", standby, () -> "127.0.0.1:11301");
    await(one.deployVerticle(onOne));
    String twoId = await(two.deployVerticle(onTwo));
    // Another group's node on the same cluster is not listed.
    GroupStatus stranger = new GroupStatus();
    stranger.set(new GroupState(GroupState.PRIMARY, 9, 0, false, 0, true, 0, true));
    await(two.deployVerticle(new GroupMembers("other", stranger, () -> "127.0.0.1:11400")));

    eventually(() -> onOne.members().size() == 2 && onTwo.members().size() == 2);
    JsonArray seenByOne = onOne.members();
    assertEquals(List.of("primary", "standby"), roles(seenByOne));
    JsonObject first = seenByOne.getJsonObject(0);
    assertEquals(3L, first.getLong("term"));
    assertEquals("127.0.0.1:11300", first.getString("serving"));
    assertEquals(true, first.getBoolean("self"));
    assertEquals(ClusterNodes.of(one).localNodeId(), first.getString("node"));
    JsonObject second = seenByOne.getJsonObject(1);
    assertEquals(512L, second.getLong("lagBytes"));
    assertEquals(false, second.getBoolean("self"));
    assertEquals(List.of(false, true), onTwo.members().stream().map(n -> ((JsonObject) n).getBoolean("self")).toList());

    // A promotion is seen at the next announcement.
    standby.set(new GroupState(GroupState.PRIMARY, 4, 0, false, 0, true, 1, true));
    eventually(() -> roles(onOne.members()).equals(List.of("primary", "primary")));

    await(two.undeploy(twoId));
    eventually(() -> onOne.members().size() == 1);
    assertEquals(List.of("primary"), roles(onOne.members()));
  }

  private static List<String> roles(JsonArray nodes) {
    return nodes.stream().map(n -> ((JsonObject) n).getString("role")).toList();
  }

  private static void eventually(BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "not within 20 s");
      // A poll, not a wait for time to pass: the announcements come once a second.
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
    }
  }

  private static <T> T await(Future<T> f) {
    return f.toCompletionStage().toCompletableFuture().join();
  }
}
