package io.github.vertxbeanstalkd.replication.election;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.hazelcast.core.HazelcastInstance;
import io.github.vertxbeanstalkd.cluster.Waits;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node waiting for the CP Subsystem to form says what it waits for (issue: a group of two nodes
 * stayed "syncing" forever and nothing said why): members of conf/cluster-group.xml on loopback,
 * joined one at a time.
 */
class CpWaitTest {
  private final CpTestMembers cp = new CpTestMembers("cp-wait");
  private final List<HazelcastInstance> members = new ArrayList<>();

  @AfterEach
  void stop() {
    members.forEach(m -> m.getLifecycleService().terminate());
  }

  @Test
  void aNodeSaysHowManyCpMembersHaveJoinedUntilTheCpSubsystemForms() throws Exception {
    GroupLock lock = new HazelcastGroupLock(member(0), "cp-wait");
    assertEquals("1 of 3 CP members", lock.waitingFor());
    member(1);
    Waits.until(() -> "2 of 3 CP members".equals(lock.waitingFor()) ? true : null, 30_000,
        () -> "said " + lock.waitingFor());
    member(2);
    Waits.until(() -> lock.waitingFor() == null ? true : null, 60_000,
        () -> "still waiting for " + lock.waitingFor() + " with three members");
  }

  private HazelcastInstance member(int i) throws Exception {
    HazelcastInstance member = cp.member(i);
    members.add(member);
    return member;
  }

}
