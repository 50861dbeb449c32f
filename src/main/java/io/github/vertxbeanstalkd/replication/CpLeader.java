package io.github.vertxbeanstalkd.replication;

import com.hazelcast.cluster.Address;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cp.CPGroupId;
import com.hazelcast.cp.CPMember;
import com.hazelcast.cp.internal.RaftService;
import com.hazelcast.cp.internal.operation.TransferLeadershipOp;
import com.hazelcast.cp.internal.raft.impl.RaftEndpoint;
import com.hazelcast.cp.internal.raft.impl.RaftNode;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.spi.impl.NodeEngineImpl;
import com.hazelcast.spi.impl.operationservice.impl.RaftInvocationContext;
import java.lang.reflect.Method;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who leads the lock's Raft group (its CP group), as this node's own replica of that group knows:
 * Hazelcast's CP calls from this node are kept on that leader, and the primary asks for the lead.
 *
 * <p>Why the calls are steered: Hazelcast sends a CP call to the leader it last knew and waits for
 * that member until the cluster removes it (hazelcast.max.no.heartbeat.seconds), although this
 * node's replica follows the newly elected leader about a second after the old one went silent.
 * Without this, the majority's calls (the lock, the record, the sessions' heartbeats) waited on a
 * cut-off or paused leader for 5 s, longer than the lock session's time-to-live. The replica's
 * leader is copied into Hazelcast's routing each time it changes, so one that lags (this node is
 * the cut-off one) does not override what Hazelcast learned from the leaders' answers.
 *
 * <p>Why the primary leads: a cut of a standby or of one link then never costs the lock's group an
 * election (the leader keeps its majority through the other standby), and the primary's own lock
 * calls never wait on another node; a cut of the primary is seen by the majority as an election
 * without it ({@link #leadsAt}). Uses internals of Hazelcast 5.3/5.4 (its RaftService and
 * RaftInvocationContext), as the lock itself can use no later open-source version.
 */
final class CpLeader {
  private static final Logger log = LoggerFactory.getLogger(CpLeader.class);
  /** How often the replica's leader is looked at: a field read, far below a Raft election (about 1 s). */
  private static final long WATCH_MILLIS = 50;
  /** A lead asked for is not asked again sooner (Hazelcast's balancer may move it, every 60 s). */
  private static final long ASK_LEAD_NANOS = 5_000_000_000L;

  private final HazelcastInstance hz;
  private final RaftService raft;
  private final NodeEngineImpl nodeEngine;
  private final Method setKnownLeader;
  private final ScheduledExecutorService watch;
  private volatile CPGroupId group;
  /**
   * The leader last copied into Hazelcast's routing. Two threads may copy the same leader at once
   * (the watch, and a caller about to call): the copy is idempotent.
   */
  private volatile RaftEndpoint routed;
  private volatile long askedLeadAtNanos = System.nanoTime() - ASK_LEAD_NANOS;

  CpLeader(HazelcastInstance hz) {
    this.hz = hz;
    this.nodeEngine = hz instanceof HazelcastInstanceProxy proxy ? proxy.getOriginal().node.getNodeEngine() : null;
    this.raft = nodeEngine == null ? null : nodeEngine.getService(RaftService.SERVICE_NAME);
    Method set = null;
    try {
      set = RaftInvocationContext.class.getDeclaredMethod("setKnownLeader", CPGroupId.class, CPMember.class);
      set.setAccessible(true);
    } catch (ReflectiveOperationException | RuntimeException e) {
      log.warn("replication: this Hazelcast does not let CP calls follow the elected leader ({}); they wait for "
          + "the cluster to remove a silent one", e.toString());
    }
    this.setKnownLeader = set;
    this.watch = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "replication-cp-leader");
      t.setDaemon(true);
      return t;
    });
  }

  /** Watches the replica of {@code lockGroup} from now on. */
  void start(CPGroupId lockGroup) {
    group = lockGroup;
    watch.scheduleWithFixedDelay(this::route, 0, WATCH_MILLIS, TimeUnit.MILLISECONDS);
  }

  void stop() {
    watch.shutdownNow();
  }

  /** The member that leads the lock's group as this node's replica knows; null while it knows none. */
  CPMember leader() {
    RaftEndpoint leader = leaderEndpoint();
    return leader == null ? null : raft.getInvocationManager().getRaftInvocationContext().getCPMember(leader.getUuid());
  }

  /**
   * The lock's group is led, as this node's replica knows, by the member at {@code address}, or it
   * knows no leader: CP calls from this node would wait on that member. When it is led by another,
   * this node's CP calls go to that one from now on.
   */
  boolean leadsAt(Address address) {
    CPMember leader = leader();
    if (leader == null || leader.getAddress().equals(address)) {
      return true;
    }
    route();
    return false;
  }

  /** This node leads the lock's group. */
  boolean isLocal() {
    CPMember leader = leader();
    return leader != null && leader.getAddress().equals(hz.getCluster().getLocalMember().getAddress());
  }

  /** Asks the leader to hand the lead of the lock's group to this node, unless it has it or asked lately. */
  void askLead() {
    CPMember leader = leader();
    CPMember local = raft == null ? null : raft.getLocalCPMember();
    long now = System.nanoTime();
    if (leader == null || local == null || leader.getUuid().equals(local.getUuid()) || now - askedLeadAtNanos < ASK_LEAD_NANOS) {
      return;
    }
    askedLeadAtNanos = now;
    log.info("replication: the primary asks {} for the lead of the lock's Raft group", leader.getAddress());
    nodeEngine.getOperationService()
        .invokeOnTarget(RaftService.SERVICE_NAME, new TransferLeadershipOp(group, local), leader.getAddress())
        .whenCompleteAsync((r, e) -> {
          if (e != null) {
            log.info("replication: the lead of the lock's Raft group stays with {}: {}", leader.getAddress(), e.toString());
          }
        });
  }

  private RaftEndpoint leaderEndpoint() {
    CPGroupId g = group;
    RaftNode node = g == null || raft == null ? null : raft.getRaftNode(g);
    return node == null ? null : node.getLeader();
  }

  /** Copies the replica's leader into Hazelcast's routing when it changed. */
  private void route() {
    try {
      RaftEndpoint leader = leaderEndpoint();
      if (leader == null || leader.equals(routed) || setKnownLeader == null) {
        return;
      }
      CPMember member = raft.getInvocationManager().getRaftInvocationContext().getCPMember(leader.getUuid());
      if (member != null) {
        setKnownLeader.invoke(raft.getInvocationManager().getRaftInvocationContext(), group, member);
        if (routed != null) {
          log.info("replication: the lock's Raft group is led by {} now; this node's CP calls go there", member.getAddress());
        }
        routed = leader;
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      log.warn("replication: the lock group's leader could not be routed to: {}", e.toString());
    }
  }
}
