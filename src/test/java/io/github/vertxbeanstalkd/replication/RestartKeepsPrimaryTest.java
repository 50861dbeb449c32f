package io.github.vertxbeanstalkd.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.config.Config;
import com.hazelcast.config.InMemoryXmlConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cp.internal.RaftService;
import com.hazelcast.cp.internal.raft.impl.RaftNode;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Three members of the shipped conf/cluster-group.xml in one JVM, each with the group's lock: a
 * standby killed and started again at its address (a new CP identity) must not cost the primary
 * its lock. The standby killed is the Raft leader of the lock's CP group, as the node killed often
 * is in the kill test: the primary's calls to the CP group then go to its address, where the new
 * process answers nothing until it learns the CP members.
 */
class RestartKeepsPrimaryTest {
  private static final String VERTX_NODE_ID = "__vertx.nodeId";
  private static final long SEATED_MILLIS = 60_000;
  private final String cluster = "restart-keeps-primary-" + UUID.randomUUID();
  private final List<Integer> ports = List.of(freePort(), freePort(), freePort());
  private final HazelcastInstance[] members = new HazelcastInstance[3];
  private final HazelcastGroupLock[] locks = new HazelcastGroupLock[3];
  private final AtomicLong confirmations = new AtomicLong();
  private final AtomicReference<String> lost = new AtomicReference<>();
  private final AtomicLong term = new AtomicLong();

  @AfterEach
  void stop() {
    for (int i = 0; i < 3; i++) {
      if (locks[i] != null) {
        locks[i].stop();
      }
      if (members[i] != null) {
        members[i].getLifecycleService().terminate();
      }
    }
  }

  @Test
  void aStandbyRestartedAtItsAddressLeavesThePrimaryItsLock() throws Exception {
    for (int i = 0; i < 3; i++) {
      members[i] = member(i);
    }
    locks[0] = new HazelcastGroupLock(members[0], "restart");
    locks[0].start(new PrimaryListener(), () -> true);
    for (int i = 1; i < 3; i++) {
      startStandbyLock(i);
    }
    awaitTrue("node 0 holds the lock", () -> term.get() > 0, SEATED_MILLIS);
    for (int i = 0; i < 3; i++) {
      int k = i;
      awaitTrue("node " + k + " seated", () -> locks[k].isSeated(), SEATED_MILLIS);
    }
    // Each restart of the CP group's leader cost the lock about half the time before the fix.
    int cycles = Integer.getInteger("restart.cycles", 2);
    for (int cycle = 1; cycle <= cycles; cycle++) {
      int victim = 1 + cycle % 2;
      makeLeaderOfTheLocksGroup(victim);
      locks[victim].stop();
      members[victim].getLifecycleService().terminate();
      members[victim] = member(victim);
      startStandbyLock(victim);
      awaitTrue("node " + victim + " seated again", () -> locks[victim].isSeated(), SEATED_MILLIS);
      // Past the session's time-to-live after the seat settled: eight confirmations, 4 s.
      long seen = confirmations.get();
      awaitTrue("8 more confirmations of the lock by node 0", () -> confirmations.get() >= seen + 8
          || lost.get() != null, 30_000);
      assertNull(lost.get(), "node 0 lost the lock when node " + victim + " restarted (cycle " + cycle + ")");
    }
    assertEquals(1, countAcquired.get(), "node 0 acquired the lock once");
  }

  private final AtomicLong countAcquired = new AtomicLong();

  private final class PrimaryListener implements GroupLock.Listener {
    @Override
    public void acquired(long acquiredTerm, long confirmedAtNanos) {
      countAcquired.incrementAndGet();
      term.set(acquiredTerm);
    }

    @Override
    public void confirmed(long confirmedTerm, long confirmedAtNanos) {
      confirmations.incrementAndGet();
    }

    @Override
    public void lost(long lostTerm, String why) {
      lost.compareAndSet(null, why);
    }
  }

  /** A standby's lock: it never competes, but heals the CP seats as every node does. */
  private void startStandbyLock(int i) {
    locks[i] = new HazelcastGroupLock(members[i], "restart");
    BooleanSupplier never = () -> false;
    locks[i].start(new GroupLock.Listener() {
      @Override
      public void acquired(long t, long at) {}

      @Override
      public void confirmed(long t, long at) {}

      @Override
      public void lost(long t, String why) {}
    }, never);
  }

  /** Transfers the Raft leadership of the lock's CP group ("default") to member {@code i}. */
  private void makeLeaderOfTheLocksGroup(int i) throws Exception {
    RaftService target = raft(members[i]);
    var groupId = raft(members[0]).getCPGroup("default").get(10, TimeUnit.SECONDS).id();
    for (int k = 0; k < 3; k++) {
      RaftNode node = raft(members[k]).getRaftNode(groupId);
      if (node != null && node.getLocalMember().equals(node.getLeader()) && k != i) {
        node.transferLeadership(target.getLocalCPEndpoint()).get(10, TimeUnit.SECONDS);
      }
    }
    awaitTrue("node " + i + " leads the lock's CP group", () -> {
      RaftNode node = target.getRaftNode(groupId);
      return node != null && node.getLocalMember().equals(node.getLeader());
    }, 10_000);
  }

  private static RaftService raft(HazelcastInstance member) {
    return ((HazelcastInstanceProxy) member).getOriginal().node.getNodeEngine().getService(RaftService.SERVICE_NAME);
  }

  private HazelcastInstance member(int i) throws IOException {
    StringBuilder list = new StringBuilder();
    ports.forEach(p -> list.append("<member>127.0.0.1:").append(p).append("</member>"));
    String xml = Files.readString(Path.of("conf", "cluster-group.xml"))
        .replaceFirst("<cluster-name>[^<]*</cluster-name>", "<cluster-name>" + cluster + "</cluster-name>")
        .replaceFirst("<port [^>]*>\\d+</port>", "<port auto-increment=\"false\">" + ports.get(i) + "</port>")
        .replaceFirst("(?s)<tcp-ip enabled=\"true\">.*?</tcp-ip>", "<tcp-ip enabled=\"true\">" + list + "</tcp-ip>");
    Config config = new InMemoryXmlConfig(xml);
    // What vertx-hazelcast sets on every member: a restarted process has a new one.
    config.getMemberAttributeConfig().setAttribute(VERTX_NODE_ID, UUID.randomUUID().toString());
    return Hazelcast.newHazelcastInstance(config);
  }

  private static void awaitTrue(String what, BooleanSupplier condition, long millis) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() - end < 0, what + ": not within " + millis + " ms");
      Thread.sleep(20);
    }
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
