package io.github.vertxbeanstalkd.replication.election;

import com.hazelcast.cluster.Address;
import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cp.CPMember;
import com.hazelcast.cp.CPSubsystemManagementService;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes, on the survivors, the CP seat of a member that is dead for sure, without waiting for the
 * node to come back and free it itself: a member whose address refuses connections once it left
 * (its process is gone: a kill, a crash), or whose address another process joined from (a restart).
 *
 * <p>Why not wait: open-source Hazelcast sends the Raft calls meant for a seat (to the CP group's last
 * known leader, or to each member in turn while none is known) to the seat's address. Once the node
 * restarted there, the new process holds those calls unanswered until it has learned the CP members
 * (RaftReplicateOp asks the METADATA group, which it cannot reach yet), and it learns them only from
 * the METADATA leader's broadcast on a join, missed when that group had no leader at the moment, or
 * its broadcast every 10 s (MetadataRaftGroupManager). The primary's session heartbeats held there
 * are not committed within the session's time-to-live, the CP group's leader expires its session
 * (RaftSessionService.CheckSessionsToExpire) and the lock is free: a failover nobody asked for. A
 * seat removed, no call is addressed to it any more, and the removal's commit makes the METADATA
 * leader broadcast the members, which releases the calls already held.
 *
 * <p>A member only missing (paused, cut off) keeps its seat: its address accepts connections, or does
 * not answer at all, and the process that comes back from there is the same one (same Vert.x node id).
 */
final class DeadSeats {
  private static final Logger log = LoggerFactory.getLogger(DeadSeats.class);
  private static final int PROBE_MILLIS = 1000;

  private final HazelcastInstance hz;
  private final Function<Member, String> vertxNodeIdOf;
  private final DepartedSeats departed = new DepartedSeats();
  /** Departures and arrivals in the order they happen; each may wait for the CP groups. */
  private final ExecutorService seatThread;

  DeadSeats(HazelcastInstance hz, Function<Member, String> vertxNodeIdOf) {
    this.hz = hz;
    this.vertxNodeIdOf = vertxNodeIdOf;
    this.seatThread = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "replication-seats");
      t.setDaemon(true);
      return t;
    });
  }

  /** A member left this node's view, which is the group's (the caller checked): its seat, if any, is dealt with. */
  void departed(Member gone) {
    run(() -> {
      // Probed first: the seat's lookup may wait for a METADATA election, and the node may be back by then.
      boolean isRefusing = isRefusing(gone.getAddress());
      UUID seat = seatAt(gone.getAddress());
      if (seat == null) {
        return;
      }
      if (isRefusing) {
        remove(seat, gone.getAddress(), "its address refuses connections");
      } else {
        departed.departed(gone.getAddress().toString(), vertxNodeIdOf.apply(gone), seat);
      }
    });
  }

  /** A member joined this node's view, which is the group's: another process at a departed seat's address frees it. */
  void joined(Member member) {
    String address = member.getAddress().toString();
    String vertxNodeId = vertxNodeIdOf.apply(member);
    // On the seats' thread, after the departure it may follow: that one looks its seat up.
    run(() -> departed.arrived(address, vertxNodeId)
        .ifPresent(seat -> remove(seat, member.getAddress(), "a new process joined at its address")));
  }

  void stop() {
    seatThread.shutdownNow();
  }

  private void run(Runnable task) {
    try {
      seatThread.execute(task);
    } catch (RejectedExecutionException stopped) {
      // Stopping: no seat is this node's business any more.
    }
  }

  private UUID seatAt(Address address) {
    try {
      CPSubsystemManagementService m = hz.getCPSubsystem().getCPSubsystemManagementService();
      for (CPMember c : m.getCPMembers().toCompletableFuture().get(10, TimeUnit.SECONDS)) {
        if (c.getAddress().equals(address)) {
          return c.getUuid();
        }
      }
    } catch (Exception e) {
      log.debug("replication: the CP seat at {} is not known: {}", address, e.toString());
    }
    return null;
  }

  /**
   * Nothing listens at the address: the process is gone. A paused one still accepts (the kernel
   * completes the handshake), one cut off does not answer: both keep their seat.
   */
  private static boolean isRefusing(Address address) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(address.getInetAddress(), address.getPort()), PROBE_MILLIS);
      return false;
    } catch (ConnectException refused) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private void remove(UUID seat, Address at, String why) {
    try {
      hz.getCPSubsystem().getCPSubsystemManagementService().removeCPMember(seat).toCompletableFuture()
          .get(30, TimeUnit.SECONDS);
      log.info("replication: removed CP member {} (gone: {})", at, why);
    } catch (Exception e) {
      // Removed already (by the node itself once back, or by another survivor), or a change is under way.
      log.debug("replication: CP member {} at {} not removed here: {}", seat, at, e.toString());
    }
  }
}
