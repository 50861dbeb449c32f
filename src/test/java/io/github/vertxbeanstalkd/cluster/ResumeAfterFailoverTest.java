package io.github.vertxbeanstalkd.cluster;

import static io.github.vertxbeanstalkd.cluster.FailoverGroup.REJOIN_MILLIS;
import static io.github.vertxbeanstalkd.cluster.FailoverGroup.awaitNewPrimary;
import static io.github.vertxbeanstalkd.cluster.FailoverGroup.awaitRole;
import static io.github.vertxbeanstalkd.cluster.FailoverGroup.term;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After a failover, the nodes that followed the old primary resume on the new one from their own
 * logs instead of taking a full copy (issue 41: at depth, a copy is a window with too few caught-up
 * standbys): the surviving standby, and the old primary once it is restarted, each holding what the
 * new primary holds ({@link FailoverGroup}, three nodes as child JVMs).
 */
class ResumeAfterFailoverTest {
  @TempDir
  Path dir;

  @Test
  void aStandbyOfTheOldPrimaryResumesOnTheNewOneWithoutAFullCopy() throws Exception {
    try (FailoverGroup group = FailoverGroup.start(dir)) {
      GroupNode first = group.awaitServing();
      long firstTerm = term(first);
      group.putAcknowledged(first, "before-kill-", 300);

      Map<GroupNode, Integer> resumesBefore = new HashMap<>();
      for (GroupNode node : group.others(first)) {
        resumesBefore.put(node, node.logCount("resuming from offset"));
      }
      long killedAt = System.nanoTime();
      first.kill();
      GroupNode second = awaitNewPrimary(group.others(first), firstTerm, killedAt);
      GroupNode survivor = group.others(first).stream().filter(n -> n != second).findFirst().orElseThrow();
      awaitRole(survivor, "standby", REJOIN_MILLIS);
      group.putAcknowledged(second, "after-kill-", 50);
      group.assertAllAcknowledgedOn(second, "after SIGKILL of " + first);
      // The survivor followed the old primary: it resumes on the new one from its own offset, both
      // holding the old term's stream up to there, and takes no copy.
      assertTrue(survivor.logCount("resuming from offset") > resumesBefore.get(survivor), survivor
          + " did not resume:\n" + survivor.log());
      assertTrue(second.logContains("resumes from offset"), second + " did not resume it:\n" + second.log());
      assertTrue(!second.logContains("copying the live jobs"), second + " copied the jobs to " + survivor + ":\n"
          + second.log());
      // And it holds what the new primary holds.
      long jobs = group.acknowledged().size();
      Waits.until(() -> readyJobs(survivor) == jobs && readyJobs(second) == jobs ? true : null, REJOIN_MILLIS,
          () -> "the survivor holds " + readyJobs(survivor) + " jobs, the new primary " + readyJobs(second)
              + ", acknowledged " + jobs);

      // The old primary comes back: it resumes where its own log ends in the new history, or rewinds
      // the tail its log has past it; either way it takes no copy and holds what the new primary holds.
      first.start();
      awaitRole(first, "standby", REJOIN_MILLIS);
      assertTrue(first.logContains("was the primary of term"), first + " did not find its own stream:\n" + first.log());
      assertTrue(!second.logContains("copying the live jobs"), second + " copied the jobs to " + first + ":\n"
          + second.log());
      Waits.until(() -> readyJobs(first) == jobs ? true : null, REJOIN_MILLIS,
          () -> "the old primary holds " + readyJobs(first) + " jobs, acknowledged " + jobs);
    }
  }

  private static long readyJobs(GroupNode node) {
    return node.apiStats().map(s -> s.getLong("current-jobs-ready", -1L)).orElse(-1L);
  }
}
