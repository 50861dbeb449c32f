package io.github.vertxbeanstalkd.replication.election;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.github.vertxbeanstalkd.cluster.ClusterNodes;
import io.github.vertxbeanstalkd.cluster.LoopbackCluster;
import io.vertx.core.Vertx;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The ids by which a node asks the others how far they applied the stream are the ids their
 * replication addresses are named by: Vert.x's node ids. Hazelcast's member id is not one: it
 * changes when a member is merged back after a split (a pause, a partition), and a standby asked
 * under its old name would not answer, so another could take over without it and lose what only
 * it acknowledged.
 */
class GroupMemberIdsTest {
  private final LoopbackCluster cluster = new LoopbackCluster(2);
  private Vertx one;
  private Vertx two;

  @AfterEach
  void close() {
    for (Vertx v : new Vertx[] {one, two}) {
      if (v != null) {
        v.close().toCompletionStage().toCompletableFuture().join();
      }
    }
  }

  @Test
  void theOtherMembersAreNamedByTheirVertxNodeIdsNotTheirHazelcastMemberIds() {
    one = cluster.node(0).toCompletionStage().toCompletableFuture().join();
    two = cluster.node(1).toCompletionStage().toCompletableFuture().join();
    var hz = ((HazelcastClusterManager) ClusterNodes.of(one).manager()).getHazelcastInstance();
    var hzTwo = ((HazelcastClusterManager) ClusterNodes.of(two).manager()).getHazelcastInstance();
    String vertxIdOfTwo = ClusterNodes.of(two).localNodeId();
    assertNotEquals(hzTwo.getCluster().getLocalMember().getUuid().toString(), vertxIdOfTwo,
        "the test needs the two ids to differ");

    List<String> others = new HazelcastGroupLock(hz, "ids-test").otherMemberIds();

    assertEquals(List.of(vertxIdOfTwo), others);
  }
}
