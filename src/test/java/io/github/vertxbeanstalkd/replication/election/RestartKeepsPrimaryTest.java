package io.github.vertxbeanstalkd.replication.election;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cp.internal.RaftService;
import com.hazelcast.cp.internal.raft.impl.RaftNode;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import io.github.vertxbeanstalkd.Await;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Three members of the shipped conf/cluster-group.xml in one JVM, each with the group's lock: a
 * standby killed and started again at its address (a new CP identity) must not cost the primary
 * its lock, and its seat must be removed before it is back. The standby killed leads the Raft
 * groups of the lock and of METADATA, as the node killed often does in the kill test: the
 * primary's calls to the lock's group then go to its address.
 */
class RestartKeepsPrimaryTest {
  private static final long SEATED_MILLIS = 60_000;
  /** Far below Hazelcast's own removal of a missing CP member (missing-cp-member-auto-removal-seconds, 30). */
  private static final long SEAT_REMOVED_MILLIS = 10_000;
  private final CpTestMembers cp = new CpTestMembers("restart-keeps-primary");
  private final HazelcastInstance[] members = new HazelcastInstance[3];
  private final HazelcastGroupLock[] locks = new HazelcastGroupLock[3];
  private final AtomicLong confirmations = new AtomicLong();
  private final AtomicReference<String> lost = new AtomicReference<>();
  private final AtomicLong term = new AtomicLong();

  @AfterEach
  void stop() {
    CpTestMembers.stop(locks, members);
  }

  @Test
  void aStandbyRestartedAtItsAddressLeavesThePrimaryItsLock() throws Exception {
    for (int i = 0; i < 3; i++) {
      members[i] = member(i);
    }
    locks[0] = new HazelcastGroupLock(members[0], "restart");
    locks[0].start(new PrimaryListener(), () -> true, () -> -1, () -> -1);
    for (int i = 1; i < 3; i++) {
      startStandbyLock(i);
    }
    Await.until("node 0 holds the lock", () -> term.get() > 0, SEATED_MILLIS);
    for (int i = 0; i < 3; i++) {
      int k = i;
      Await.until("node " + k + " seated", () -> locks[k].isSeated(), SEATED_MILLIS);
    }
    // Each restart of the CP group's leader cost the lock about half the time before the fix.
    int cycles = Integer.getInteger("restart.cycles", 2);
    for (int cycle = 1; cycle <= cycles; cycle++) {
      int victim = 1 + cycle % 2;
      makeLeaderOfTheLocksGroup(victim);
      String address = members[victim].getCluster().getLocalMember().getAddress().toString();
      locks[victim].stop();
      members[victim].getLifecycleService().terminate();
      // Its seat must be gone before the node is back at its address (a JVM takes seconds to start):
      // Raft calls still meant for the seat would then reach the new process, which holds them
      // unanswered until it has learned the CP members, up to 10 s; the primary's session
      // heartbeats among them would miss the session's time-to-live. Hazelcast alone removes a
      // missing CP member after 30 s.
      long killedAt = System.nanoTime();
      Await.until("the seat of node " + victim + " removed", () -> seatsAt(address) == 0, SEAT_REMOVED_MILLIS);
      System.out.println("RestartKeepsPrimaryTest: cycle " + cycle + ": the seat of node " + victim + " was removed "
          + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt) + " ms after it was killed");
      members[victim] = member(victim);
      startStandbyLock(victim);
      Await.until("node " + victim + " seated again", () -> locks[victim].isSeated(), SEATED_MILLIS);
      // Past the session's time-to-live after the seat settled: eight confirmations, 4 s.
      long seen = confirmations.get();
      Await.until("8 more confirmations of the lock by node 0", () -> confirmations.get() >= seen + 8
          || lost.get() != null, 30_000);
      assertNull(lost.get(), "node 0 lost the lock when node " + victim + " restarted (cycle " + cycle + ")");
    }
    assertEquals(1, countAcquired.get(), "node 0 acquired the lock once");
  }

  private final AtomicLong countAcquired = new AtomicLong();

  private final class PrimaryListener implements GroupLock.Listener {
    @Override
    public void acquired(long acquiredTerm, long confirmedAtNanos, boolean isAlone) {
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
      public void acquired(long t, long at, boolean isAlone) {}

      @Override
      public void confirmed(long t, long at) {}

      @Override
      public void lost(long t, String why) {}
    }, never, () -> -1, () -> -1);
  }

  /** Transfers the Raft leadership of the lock's CP group ("default") and of METADATA to member {@code i}. */
  private void makeLeaderOfTheLocksGroup(int i) throws Exception {
    makeLeader(i, raft(members[0]).getCPGroup("default").get(10, TimeUnit.SECONDS).id());
    makeLeader(i, raft(members[0]).getMetadataGroupId());
  }

  private void makeLeader(int i, com.hazelcast.cp.CPGroupId groupId) throws Exception {
    RaftService target = raft(members[i]);
    for (int k = 0; k < 3; k++) {
      RaftNode node = raft(members[k]).getRaftNode(groupId);
      if (node != null && node.getLocalMember().equals(node.getLeader()) && k != i) {
        node.transferLeadership(target.getLocalCPEndpoint()).get(10, TimeUnit.SECONDS);
      }
    }
    Await.until("node " + i + " leads " + groupId.getName(), () -> {
      RaftNode node = target.getRaftNode(groupId);
      return node != null && node.getLocalMember().equals(node.getLeader());
    }, 10_000);
  }

  /** CP members at {@code address}, as node 0 sees them. */
  private int seatsAt(String address) {
    try {
      return (int) members[0].getCPSubsystem().getCPSubsystemManagementService().getCPMembers().toCompletableFuture()
          .get(10, TimeUnit.SECONDS).stream().filter(c -> c.getAddress().toString().equals(address)).count();
    } catch (Exception e) {
      return -1;
    }
  }

  private static RaftService raft(HazelcastInstance member) {
    return ((HazelcastInstanceProxy) member).getOriginal().node.getNodeEngine().getService(RaftService.SERVICE_NAME);
  }

  private HazelcastInstance member(int i) throws IOException {
    return cp.member(i);
  }


}
