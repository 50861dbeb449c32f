package io.github.vertxbeanstalkd.replication.election;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.hazelcast.core.HazelcastInstance;
import io.github.vertxbeanstalkd.Await;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node that steps down of its own accord lets the group's lock go, so that another can take it.
 * Seen in a partition run: a primary that read a newer term in the group's record stepped down but
 * kept the lock, confirming it every half second; the standby that held the most competed in vain,
 * and the group had no primary for minutes.
 */
class LockReleaseTest {
  private static final long ACQUIRED_MILLIS = 60_000;
  private final CpTestMembers cp = new CpTestMembers("lock-release");
  private final HazelcastInstance[] members = new HazelcastInstance[3];
  private final HazelcastGroupLock[] locks = new HazelcastGroupLock[3];
  private final AtomicLong[] terms = {new AtomicLong(), new AtomicLong(), new AtomicLong()};

  @AfterEach
  void stop() {
    CpTestMembers.stop(locks, members);
  }

  private void startLock(int i, java.util.function.BooleanSupplier mayCompete) {
    locks[i] = new HazelcastGroupLock(members[i], "release");
    locks[i].start(new GroupLock.Listener() {
      @Override
      public void acquired(long term, long at, boolean isAlone) {
        terms[i].set(term);
      }

      @Override
      public void confirmed(long term, long at) {}

      @Override
      public void lost(long term, String why) {}
    }, mayCompete, () -> -1, () -> -1);
  }

  @Test
  void aNodeThatSteppedDownLetsTheLockGoToTheNextCandidate() throws Exception {
    for (int i = 0; i < 3; i++) {
      members[i] = cp.member(i);
    }
    startLock(0, () -> terms[1].get() == 0);
    Await.until("node 0 holds the lock", () -> terms[0].get() > 0, ACQUIRED_MILLIS);
    startLock(1, () -> true);
    startLock(2, () -> false);
    // Node 1 competes all along; while node 0 holds the lock, in vain. Node 0 steps down.
    locks[0].release(terms[0].get());
    Await.until("node 1 takes the lock node 0 let go", () -> terms[1].get() > terms[0].get(), ACQUIRED_MILLIS);
    assertEquals(0, terms[2].get(), "node 2 never competed");
  }
}
