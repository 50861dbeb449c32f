package io.github.vertxbeanstalkd.replication.election;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cp.lock.FencedLock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The group's lock as Hazelcast's CP {@link FencedLock} (Raft, linearizable with three or more CP
 * members), whose fence is the term. Every lock call runs on one dedicated thread: ownership is per
 * thread and the calls block. The CP members it needs are kept whole by {@link CpMembership}; the
 * group's records (who went on alone, the ids given out) are {@link GroupRecords}, in the same CP
 * group.
 */
public final class HazelcastGroupLock implements GroupLock {
  private static final Logger log = LoggerFactory.getLogger(HazelcastGroupLock.class);
  private static final long CONFIRM_MILLIS = 500;
  /** After letting the lock go of its own accord, how long this node leaves it to the others. */
  private static final long RELEASED_PAUSE_MILLIS = 1000;
  private final HazelcastInstance hz;
  private final String name;
  /**
   * The group's records, made on the lock's thread before it first competes: making them blocks
   * until the CP Subsystem answers, so they are never made on an event loop.
   */
  private volatile GroupRecords records;
  private final ExecutorService lockThread;
  private volatile boolean isRunning;
  /** The term this node stepped down from of its own accord: the lock thread lets it go (0: none). */
  private volatile long releaseTerm;
  private Thread runner;
  /** Keeps the CP members whole, so that the lock keeps its majority. */
  private final CpMembership membership;

  public HazelcastGroupLock(HazelcastInstance hz, String group) {
    this.hz = hz;
    this.name = "beanstalkd.replication." + group;
    this.lockThread = Executors.newSingleThreadExecutor(r -> daemon(r, "replication-lock"));
    this.membership = new CpMembership(hz);
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  @Override
  public boolean isSafe() {
    return membership.isSafe();
  }

  @Override
  public long leaseNanos() {
    long ttlSeconds = hz.getConfig().getCPSubsystemConfig().getSessionTimeToLiveSeconds();
    // A confirmation counts from the moment it was sent; one confirmation period of margin.
    return TimeUnit.SECONDS.toNanos(ttlSeconds) - TimeUnit.MILLISECONDS.toNanos(2 * CONFIRM_MILLIS);
  }

  @Override
  public List<String> otherMemberIds() {
    List<String> ids = new ArrayList<>();
    for (Member member : hz.getCluster().getMembers()) {
      if (!member.localMember() && !member.isLiteMember()) {
        // Vert.x's node id (a member attribute): it stays when Hazelcast gives a member merged back
        // after a split a new member id, and it is what the nodes name their addresses by.
        ids.add(CpMembership.vertxNodeIdOf(member));
      }
    }
    return ids;
  }

  @Override
  public void start(Listener listener, java.util.function.BooleanSupplier mayCompete,
      java.util.function.LongSupplier ledTerm, java.util.function.LongSupplier heldTerm) {
    isRunning = true;
    membership.start();
    lockThread.execute(() -> {
      runner = Thread.currentThread();
      compete(listener, mayCompete, ledTerm, heldTerm);
    });
  }

  @Override
  public void release(long term) {
    releaseTerm = term;
  }

  @Override
  public void stop() {
    isRunning = false;
    lockThread.execute(() -> {
      try {
        FencedLock lock = hz.getCPSubsystem().getLock(name);
        if (lock.isLockedByCurrentThread()) {
          lock.unlock();
        }
      } catch (RuntimeException e) {
        log.debug("releasing the group's lock: {}", e.toString());
      }
    });
    if (runner != null) {
      runner.interrupt();
    }
    lockThread.shutdown();
    membership.stop();
  }

  /**
   * Acquires, confirms every half second while held, and competes again once lost. The lock never
   * stays on this node while it does not serve as its term: a fence this thread may still hold (its
   * node stepped down, a try or a confirmation failed half way) is let go before anything else.
   */
  private void compete(Listener listener, java.util.function.BooleanSupplier mayCompete,
      java.util.function.LongSupplier ledTerm, java.util.function.LongSupplier heldTerm) {
    FencedLock lock = hz.getCPSubsystem().getLock(name);
    records = new GroupRecords(hz, name);
    // Whether this thread may hold the lock without serving it: after its node stepped down, or a
    // call that failed without saying whether it took or kept the lock.
    boolean mayHold = false;
    while (isRunning) {
      long term = 0;
      try {
        boolean may = mayCompete.getAsBoolean();
        if (mayHold && (!may || releaseTerm != 0)) {
          letGo(lock);
          mayHold = false;
          if (releaseTerm != 0) {
            releaseTerm = 0;
            // The others first: this node competes again only after a pause, and only if it may.
            Thread.sleep(RELEASED_PAUSE_MILLIS);
            continue;
          }
        }
        if (!may) {
          Thread.sleep(100);
          continue;
        }
        // No waiting inside the lock: whether this node may take over is decided afresh each try.
        mayHold = true;
        term = lock.tryLockAndGetFence();
        if (term == FencedLock.INVALID_FENCE) {
          term = 0;
          mayHold = false;
          Thread.sleep(100);
          continue;
        }
        long sent = System.nanoTime();
        long claimed;
        try {
          claimed = records.claim(term, ledTerm.getAsLong(), heldTerm.getAsLong());
        } catch (Exception e) {
          log.info("replication: won the lock as term {}, but could not claim the group's record ({}); letting "
              + "the lock go", term, e.toString());
          claimed = -1;
        }
        if (claimed < 0) {
          letGo(lock);
          mayHold = false;
          term = 0;
          Thread.sleep(500);
          continue;
        }
        releaseTerm = 0;
        listener.acquired(term, sent, GroupRecords.isAlone(claimed));
        while (isRunning) {
          Thread.sleep(CONFIRM_MILLIS);
          if (releaseTerm == term) {
            log.info("replication: letting the group's lock go as term {}: this node stepped down", term);
            term = 0;
            break;
          }
          sent = System.nanoTime();
          boolean isLocked = lock.isLockedByCurrentThread();
          if (!isLocked || lock.getFence() != term) {
            mayHold = isLocked;
            listener.lost(term, "the lock is held by another node now");
            break;
          }
          listener.confirmed(term, sent);
        }
      } catch (InterruptedException stopping) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        // LockOwnershipLostException (our CP session was closed), IndeterminateOperationStateException
        // (the CP group cannot be reached), and the like: step down, then compete again; the lock is
        // let go first if this thread still holds it.
        if (term != 0) {
          listener.lost(term, e.getClass().getSimpleName() + ": " + e.getMessage());
        } else {
          log.debug("the group's lock could not be tried: {}", e.toString());
        }
        pause(200);
      }
    }
  }

  /**
   * Lets go of every hold this thread has on the lock (a reentrant try may have taken it twice).
   * Throws when the CP group cannot be reached: the caller tries again on its next round.
   */
  private static void letGo(FencedLock lock) {
    while (lock.isLockedByCurrentThread()) {
      lock.unlock();
    }
  }

  @Override
  public long aloneTerm() {
    return records.aloneTerm();
  }

  @Override
  public CompletionStage<Boolean> recordAlone(long term, boolean isAlone, long deadlineMillis) {
    // Only a primary records, and it became one on the lock's thread, after the records were made.
    return records.recordAlone(term, isAlone, deadlineMillis);
  }

  @Override
  public CompletionStage<Long> takeIds(long atLeast, long count) {
    // Only a primary takes ids, and it became one on the lock's thread, after the records were made.
    return records.takeIds(atLeast, count);
  }

  @Override
  public String waitingFor() {
    return membership.waitingFor();
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public boolean isSeated() {
    return membership.isSeated();
  }
}
