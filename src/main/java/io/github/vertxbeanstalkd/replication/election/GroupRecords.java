package io.github.vertxbeanstalkd.replication.election;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cp.IAtomicLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The group's two records in the lock's CP group (the same Raft majority as the lock): who went on
 * alone, an {@link IAtomicLong} holding the term times two, plus one while that term's primary
 * acknowledges alone (as Patroni's {@code /sync}); and the next job id no primary was given a range
 * from. Made on the lock's thread: making the proxies blocks until the CP Subsystem answers.
 */
final class GroupRecords {
  private static final Logger log = LoggerFactory.getLogger(GroupRecords.class);
  /** How long a read or claim of the record may take on the lock's thread before the try counts as failed. */
  private static final long RECORD_MILLIS = 2000;

  private final IAtomicLong record;
  private final IAtomicLong ids;

  /** The records of the lock {@code lockName}; blocks until the CP Subsystem answers. */
  GroupRecords(HazelcastInstance hz, String lockName) {
    record = hz.getCPSubsystem().getAtomicLong(lockName + ".alone");
    ids = hz.getCPSubsystem().getAtomicLong(lockName + ".ids");
  }

  /**
   * Claims the record for {@code term}, just won: it stays "alone" only when the term that went on
   * alone is the one this node led. Compare-and-set, so a primary that records "alone" for its term
   * at the same moment either lands first (and this node lets the lock go) or finds the new term.
   * Blocking: the lock's thread only.
   *
   * <p>A record that names a term older than {@code heldTerm} (the newest term whose stream this
   * node holds complete) holds nothing back: that newer term's primary took over holding all the
   * older one acknowledged alone, and its stream carries it. Such a record was seen in a partition
   * run five minutes and eight terms after its term ended, with every node waiting on it.
   *
   * @return the record written, or -1 when the record names another term that went on alone
   */
  long claim(long term, long ledTerm, long heldTerm) throws Exception {
    while (true) {
      long now = record.getAsync().toCompletableFuture().get(RECORD_MILLIS, TimeUnit.MILLISECONDS);
      // A term that went on alone holds the others back, unless this node holds a newer stream.
      boolean holdsBack = isAlone(now) && termOf(now) >= heldTerm;
      if (holdsBack && termOf(now) != ledTerm) {
        log.info("replication: won the lock as term {}, but the primary of term {} acknowledged changes alone: "
            + "only it may take over; letting the lock go", term, termOf(now));
        return -1;
      }
      long wanted = encode(term, holdsBack);
      RecordSwap swap = new RecordSwap(now, wanted, System.currentTimeMillis() + RECORD_MILLIS);
      if (record.alterAndGetAsync(swap).toCompletableFuture().get(RECORD_MILLIS, TimeUnit.MILLISECONDS) == wanted) {
        return wanted;
      }
    }
  }

  /** See {@link GroupLock#aloneTerm()}. Blocking. */
  long aloneTerm() {
    try {
      long now = record.getAsync().toCompletableFuture().get(RECORD_MILLIS, TimeUnit.MILLISECONDS);
      return isAlone(now) ? termOf(now) : -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted reading the group's record", e);
    } catch (Exception e) {
      throw new IllegalStateException("the group's record cannot be read: " + e, e);
    }
  }

  /** See {@link GroupLock#recordAlone}. */
  CompletionStage<Boolean> recordAlone(long term, boolean isAlone, long deadlineMillis) {
    return record.getAsync().thenCompose(now -> {
      if (termOf(now) != term) {
        // A newer term claimed it: this node is primary no longer.
        return CompletableFuture.completedFuture(false);
      }
      long wanted = encode(term, isAlone);
      if (now == wanted) {
        return CompletableFuture.completedFuture(true);
      }
      if (System.currentTimeMillis() > deadlineMillis) {
        return CompletableFuture.failedFuture(new java.util.concurrent.TimeoutException("the group's record was "
            + "read too late to be written"));
      }
      return record.alterAndGetAsync(new RecordSwap(now, wanted, deadlineMillis))
          .thenCompose(after -> after == wanted ? CompletableFuture.completedFuture(true)
              : recordAlone(term, isAlone, deadlineMillis));
    });
  }

  /** See {@link GroupLock#takeIds}. */
  CompletionStage<Long> takeIds(long atLeast, long count) {
    return ids.getAsync().thenCompose(now -> {
      long first = Math.max(now, atLeast);
      return ids.compareAndSetAsync(now, first + count)
          .thenCompose(ok -> ok ? CompletableFuture.completedFuture(first) : takeIds(atLeast, count));
    });
  }

  private static long encode(long term, boolean isAlone) {
    return term * 2 + (isAlone ? 1 : 0);
  }

  private static long termOf(long record) {
    return record / 2;
  }

  /** Whether a record as {@link #claim} returns it says that its term goes on alone. */
  static boolean isAlone(long record) {
    return (record & 1) == 1;
  }
}
