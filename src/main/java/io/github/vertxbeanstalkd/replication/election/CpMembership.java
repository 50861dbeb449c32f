package io.github.vertxbeanstalkd.replication.election;

import com.hazelcast.cluster.Address;
import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cp.CPMember;
import com.hazelcast.cp.CPSubsystemManagementService;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's part in keeping the CP Subsystem whole, which the group's lock needs to keep its
 * majority across faults and restarts (open-source Hazelcast keeps no CP state on disk, so a
 * restarted node comes back as a new member): when a member leaves, its CP sessions are closed at
 * once (its lock is freed without waiting out the session's time-to-live), and its seat is removed
 * once it is dead for sure ({@link DeadSeats}); a node that starts without a CP seat while one is
 * free promotes itself, and counts as seated only once both CP groups list it. Nothing is closed or
 * removed on a view this node cannot trust: when it sees no majority, merges back after a split, or
 * has just stood still ({@link PauseWatch}). The repairs block, so they run on a thread of their own.
 */
final class CpMembership {
  private static final Logger log = LoggerFactory.getLogger(CpMembership.class);
  private static final String CP_GROUP = "default";
  /** The member attribute in which vertx-hazelcast keeps each member's Vert.x node id. */
  private static final String VERTX_NODE_ID = "__vertx.nodeId";
  /** How long a new CP seat is left to settle before the node counts as seated. */
  private static final long SEAT_SETTLE_MILLIS = 3000;

  private final HazelcastInstance hz;
  private final ExecutorService cpThread;
  private volatile boolean isRunning;
  /** This node holds one of the CP seats, in both CP groups: the lock's majority can outlive another node. */
  private volatile boolean isSeated;
  /** Hazelcast is merging this node back after a split: membership events replay a view that is not the group's. */
  private volatile boolean isMerging;
  /** Counts merges and pauses: a seat that settled across one of them is checked again. */
  private final java.util.concurrent.atomic.AtomicLong seatEpoch = new java.util.concurrent.atomic.AtomicLong();
  /** A heal is queued or running on the CP thread. */
  private final java.util.concurrent.atomic.AtomicBoolean isHealing = new java.util.concurrent.atomic.AtomicBoolean();
  /** Removes the seats of members dead for sure, which the CP groups would otherwise keep addressing. */
  private final DeadSeats deadSeats;
  private final PauseWatch pauses = new PauseWatch(() -> isRunning, this::onPause, this::healAgainIfUnseated);

  CpMembership(HazelcastInstance hz) {
    this.hz = hz;
    this.cpThread = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "replication-cp");
      t.setDaemon(true);
      return t;
    });
    this.deadSeats = new DeadSeats(hz, CpMembership::vertxNodeIdOf);
  }

  /** Vert.x's node id of a member (a member attribute), or its Hazelcast id when it has none. */
  static String vertxNodeIdOf(Member member) {
    String vertxNodeId = member.getAttribute(VERTX_NODE_ID);
    return vertxNodeId != null ? vertxNodeId : member.getUuid().toString();
  }

  /** False in Hazelcast's "unsafe mode" (fewer than three CP members): there is nothing to keep whole. */
  boolean isSafe() {
    return hz.getConfig().getCPSubsystemConfig().getCPMemberCount() >= 3;
  }

  /** Starts watching the members (a data member in safe mode only) and takes a seat if one is free. */
  void start() {
    isRunning = true;
    if (isSafe() && !hz.getCluster().getLocalMember().isLiteMember()) {
      hz.getLifecycleService().addLifecycleListener(e -> {
        if (e.getState() == com.hazelcast.core.LifecycleEvent.LifecycleState.MERGING) {
          isMerging = true;
          // Its seat is checked again once it is back: until then it does not count on it.
          seatEpoch.incrementAndGet();
          isSeated = false;
        } else if (e.getState() == com.hazelcast.core.LifecycleEvent.LifecycleState.MERGED
            || e.getState() == com.hazelcast.core.LifecycleEvent.LifecycleState.MERGE_FAILED) {
          isMerging = false;
          seatEpoch.incrementAndGet();
          healSoon();
        }
      });
      hz.getCluster().addMembershipListener(new MembershipListener() {
        @Override
        public void memberAdded(MembershipEvent e) {
          if (seesMajority() && !isMerging && !pauses.isViewStale()) {
            deadSeats.joined(e.getMember());
          }
        }

        @Override
        public void memberRemoved(MembershipEvent e) {
          long removedAtMillis = System.currentTimeMillis();
          if (!seesMajority()) {
            // This node is the one cut off (resumed after a pause, merging back after a partition):
            // the others are not gone, so their sessions and seats are not its to take away.
            log.info("replication: member {} left this node's view, but this node sees no majority; "
                + "nothing is closed or removed", e.getMember().getAddress());
            return;
          }
          cpThread.execute(() -> {
            closeSessionsOf(e.getMember(), removedAtMillis);
            heal();
          });
          if (!isMerging && !pauses.isViewStale()) {
            deadSeats.departed(e.getMember());
          }
        }
      });
      hz.getCPSubsystem().addMembershipListener(new com.hazelcast.cp.event.CPMembershipListener() {
        @Override
        public void memberAdded(com.hazelcast.cp.event.CPMembershipEvent e) {}

        @Override
        public void memberRemoved(com.hazelcast.cp.event.CPMembershipEvent e) {
          cpThread.execute(() -> {
            CPMember local = hz.getCPSubsystem().getCPSubsystemManagementService().getLocalCPMember();
            if (local == null || local.getUuid().equals(e.getMember().getUuid())) {
              // This node lost its seat (it was cut off long enough to be removed): take one again.
              isSeated = false;
              log.warn("replication: this node lost its CP seat; it takes a free one again");
              heal();
            }
          });
        }
      });
      healSoon();
    }
    pauses.start();
  }

  void stop() {
    isRunning = false;
    cpThread.shutdownNow();
    deadSeats.stop();
  }

  /**
   * What this node waits for before the CP Subsystem works, for example "2 of 3 CP members", or
   * null when it waits for nothing.
   */
  String waitingFor() {
    if (!isSafe() || hz.getCluster().getLocalMember().isLiteMember()) {
      return null;
    }
    CPSubsystemManagementService m = hz.getCPSubsystem().getCPSubsystemManagementService();
    if (m.isDiscoveryCompleted()) {
      return null;
    }
    int want = hz.getConfig().getCPSubsystemConfig().getCPMemberCount();
    long seen = hz.getCluster().getMembers().stream().filter(mb -> !mb.isLiteMember()).count();
    return Math.min(seen, want) + " of " + want + " CP members";
  }

  /** This node holds a CP seat in both CP groups (always true in unsafe mode). */
  boolean isSeated() {
    return !isSafe() || isSeated;
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A heal that gave up (the CP groups had no leader for minutes) is tried again, every 5 s. */
  private void healAgainIfUnseated() {
    if (isSafe() && !isSeated && !hz.getCluster().getLocalMember().isLiteMember()) {
      healSoon();
    }
  }

  /**
   * The group may have changed while this node stood still (Hazelcast merges it back with a new
   * member id): it counts as seated again only once the CP groups list it and settled.
   */
  private void onPause(long gapMillis) {
    if (isSafe()) {
      seatEpoch.incrementAndGet();
      isSeated = false;
      healSoon();
    }
    log.warn("replication: this process was paused for about {} ms; for the next {} s it closes no "
        + "member's CP session and removes no CP member on its own view", gapMillis,
        PauseWatch.DISTRUST_AFTER_PAUSE_MILLIS / 1000);
  }

  private boolean isInView(Address address) {
    for (Member member : hz.getCluster().getMembers()) {
      if (member.getAddress().equals(address)) {
        return true;
      }
    }
    return false;
  }

  /**
   * This node sees more than half of the group's CP seats' worth of data members, itself
   * included: a member missing from its view is gone for the majority too, not this node cut off.
   */
  private boolean seesMajority() {
    long visible = hz.getCluster().getMembers().stream().filter(m -> !m.isLiteMember()).count();
    return visible * 2 > hz.getConfig().getCPSubsystemConfig().getCPMemberCount();
  }

  /** A member left: its CP sessions end now, so a lock it held is free without waiting for its time-to-live. */
  private void closeSessionsOf(Member gone, long removedAtMillis) {
    if (!seesMajority() || isMerging || pauses.isViewStale() || isInView(gone.getAddress())) {
      // Cut off, merging back, or the member is in this node's view again (a merge replays departures
      // of members that never left): its sessions are not this node's to close.
      return;
    }
    DepartedSessions.close(hz, CP_GROUP, gone.getAddress(), removedAtMillis);
  }

  /**
   * Removes CP members that are gone (matched by address: a promoted member's CP id differs from its
   * member id), and promotes this node while fewer than three live CP members remain.
   */
  private void heal() {
    CPSubsystemManagementService m = hz.getCPSubsystem().getCPSubsystemManagementService();
    int want = hz.getConfig().getCPSubsystemConfig().getCPMemberCount();
    for (int attempt = 0; attempt < 240 && isRunning; attempt++) {
      try {
        if (!m.isDiscoveryCompleted()) {
          pause(500);
          continue;
        }
        Collection<CPMember> members = m.getCPMembers().toCompletableFuture().get(10, TimeUnit.SECONDS);
        List<CPMember> dead = seesMajority() && !isMerging && !pauses.isViewStale() ? deadMembers(m, members) : List.of();
        for (CPMember c : dead) {
          m.removeCPMember(c.getUuid()).toCompletableFuture().get(30, TimeUnit.SECONDS);
          log.info("replication: removed CP member {} (gone)", c.getAddress());
        }
        if (m.getLocalCPMember() == null && members.size() - dead.size() < want) {
          m.promoteToCPMember().toCompletableFuture().get(30, TimeUnit.SECONDS);
          log.info("replication: this node took a free CP seat");
        }
        if (m.getLocalCPMember() != null && isInEveryGroup(m)) {
          // The groups list this node while the leader may still be applying the change: a fault
          // in that moment would leave no majority. Let it settle before the node counts as seated.
          long epoch = seatEpoch.get();
          pause(SEAT_SETTLE_MILLIS);
          // A merge or a pause during the settling makes it start again: the seat is checked after it.
          isSeated = m.getLocalCPMember() != null && isInEveryGroup(m) && epoch == seatEpoch.get() && !isMerging;
          if (isSeated) {
            return;
          }
        }
        pause(250);
      } catch (Exception e) {
        log.debug("replication: CP members not healed yet: {}", e.toString());
        pause(1000);
      }
    }
  }

  /** Runs {@link #heal} on the CP thread unless one is queued or running already. */
  private void healSoon() {
    if (isHealing.compareAndSet(false, true)) {
      try {
        cpThread.execute(() -> {
          try {
            heal();
          } finally {
            isHealing.set(false);
          }
        });
      } catch (java.util.concurrent.RejectedExecutionException stopped) {
        isHealing.set(false);
      }
    }
  }

  /** Both CP groups (METADATA and the lock's) list this node: promotion has finished. */
  private static boolean isInEveryGroup(CPSubsystemManagementService m) throws Exception {
    CPMember local = m.getLocalCPMember();
    for (String group : new String[] {"METADATA", CP_GROUP}) {
      var g = m.getCPGroup(group).toCompletableFuture().get(10, TimeUnit.SECONDS);
      if (g == null || g.members().stream().noneMatch(c -> c.getUuid().equals(local.getUuid()))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The CP seat this node held before it restarted (its address, another CP identity: open-source
   * Hazelcast keeps no CP state on disk): it is freed at once, so that this node can take a seat
   * again. A member that is only missing keeps its seat until Hazelcast's own
   * missing-cp-member-auto-removal (30 s in cluster-group.xml): a node paused past the failure
   * timeout, or cut off for a moment, comes back still seated, and the group keeps three seats and
   * its tolerance of the next fault.
   */
  private List<CPMember> deadMembers(CPSubsystemManagementService m, Collection<CPMember> members) {
    Address me = hz.getCluster().getLocalMember().getAddress();
    CPMember local = m.getLocalCPMember();
    List<CPMember> dead = new ArrayList<>();
    for (CPMember c : members) {
      if (c.getAddress().equals(me) && (local == null || !local.getUuid().equals(c.getUuid()))) {
        dead.add(c);
      }
    }
    return dead;
  }
}
