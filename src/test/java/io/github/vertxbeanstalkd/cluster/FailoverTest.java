package io.github.vertxbeanstalkd.cluster;

import static io.github.vertxbeanstalkd.cluster.FailoverGroup.REJOIN_MILLIS;
import static io.github.vertxbeanstalkd.cluster.FailoverGroup.TUBE;
import static io.github.vertxbeanstalkd.cluster.FailoverGroup.awaitNewPrimary;
import static io.github.vertxbeanstalkd.cluster.FailoverGroup.awaitRole;
import static io.github.vertxbeanstalkd.cluster.FailoverGroup.peek;
import static io.github.vertxbeanstalkd.cluster.FailoverGroup.term;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.vertxbeanstalkd.TestClient;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failover of a three-node replication group ({@link FailoverGroup}): the primary is killed with
 * SIGKILL, then the new primary is frozen with SIGSTOP until a third node takes over, and resumed;
 * in between, a standby is killed and restarted and must resume from its own log. Every job
 * acknowledged with {@code minAcks: 1} must still be there, ids must go on above every id issued,
 * and the resumed node must step down without acknowledging anything of its own.
 */
class FailoverTest {
  @TempDir
  Path dir;

  @Test
  void acknowledgedJobsSurviveAKilledPrimaryAndAPausedOne() throws Exception {
    try (FailoverGroup group = FailoverGroup.start(dir)) {
      GroupNode first = group.awaitServing();
      long firstTerm = term(first);
      group.putAcknowledged(first, "before-kill-", 50);

      // SIGKILL: a new primary with every acknowledged job, and ids above every id issued.
      long killedAt = System.nanoTime();
      first.kill();
      GroupNode second = awaitNewPrimary(group.others(first), firstTerm, killedAt);
      long secondTerm = term(second);
      group.assertAllAcknowledgedOn(second, "after SIGKILL of " + first);
      group.putAcknowledged(second, "after-kill-", 1);

      // The killed node comes back as a standby; the group again tolerates one fault.
      first.start();
      awaitRole(first, "standby", REJOIN_MILLIS);
      assertSame(second, group.awaitOnePrimaryAndStandbys(REJOIN_MILLIS), "the primary changed when " + first
          + " rejoined");
      group.putAcknowledged(second, "before-stop-", 10);

      // A standby killed and restarted resumes from its own log where the primary's backlog has it.
      first.kill();
      group.putAcknowledged(second, "while-a-standby-is-down-", 5);
      first.start();
      awaitRole(first, "standby", REJOIN_MILLIS);
      assertTrue(first.logContains("resuming from offset"), first + " took a full copy instead of resuming:\n"
          + first.log());
      assertSame(second, group.awaitOnePrimaryAndStandbys(REJOIN_MILLIS), "the primary changed when " + first
          + " restarted");
      long highestBeforeStop = group.highestAcknowledged();

      // SIGSTOP: a put reaches the frozen primary's socket; a third node takes over.
      try (TestClient stale = TestClient.open(second.port(), 60_000)) {
        stale.send("use " + TUBE).expect("USING " + TUBE);
        long stoppedAt = System.nanoTime();
        second.stop();
        byte[] staleBody = "sent-to-the-paused-primary".getBytes(StandardCharsets.US_ASCII);
        stale.sendPut(0, 0, 120, staleBody);
        GroupNode third = awaitNewPrimary(group.others(second), secondTerm, stoppedAt);
        long thirdTerm = term(third);
        group.assertAllAcknowledgedOn(third, "after SIGSTOP of " + second);
        group.putAcknowledged(third, "after-stop-", 1);

        // SIGCONT: the old primary must not have acknowledged the put on its own.
        second.resume();
        String reply = replyOrClose(stale);
        System.out.println("FailoverTest: the put sent to the paused primary got " + reply + " after SIGCONT");
        if (reply != null && reply.startsWith("INSERTED ")) {
          long id = Long.parseLong(reply.substring("INSERTED ".length()));
          assertTrue(id > highestBeforeStop, "the resumed node acknowledged id " + id + ", not above "
              + highestBeforeStop + ", the highest issued before it was paused");
          assertEquals(new String(staleBody, StandardCharsets.US_ASCII), peek(third, id),
              "the resumed node acknowledged job " + id + " that the new primary (term " + thirdTerm
                  + ") does not hold");
          // Forwarded to the new primary and stored there: an acknowledgement like any other.
          group.acknowledged().put(id, new String(staleBody, StandardCharsets.US_ASCII));
        }
        awaitRole(second, "standby", REJOIN_MILLIS);
        long resumedTerm = term(second);
        assertTrue(resumedTerm < 0 || thirdTerm < 0 || resumedTerm >= thirdTerm,
            "the resumed node follows term " + resumedTerm + ", older than the new primary's " + thirdTerm
                + group.roles());
        assertEquals("primary", third.role(), "the new primary kept its role when the old one resumed");
        group.assertAllAcknowledgedOn(third, "after SIGCONT of " + second);
      }
    }
  }

  /** The next reply line, or null when the connection was closed or reset instead. */
  private static String replyOrClose(TestClient client) {
    try {
      return client.readLineOrNull();
    } catch (UncheckedIOException closed) {
      if (closed.getCause() instanceof java.net.SocketTimeoutException) {
        fail("a put sent to the paused primary got no reply and no close within 60 s of SIGCONT");
      }
      return null;
    }
  }
}
