package io.github.vertxbeanstalkd.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The crash harness's judgement, on its own: what a restarted server may show for one job. */
class LedgerRulesTest {
  private static final long CRASH = 50_000;

  private static JobFacts put(long pri, long delaySeconds) {
    SentPut p = SentPut.of("t|", "default", pri, delaySeconds, "t|body".getBytes(), 1_000);
    return new JobFacts(7, p);
  }

  private static boolean admits(JobFacts f, Outcome seen, long seenMillis) {
    return f.allowed().stream().anyMatch(o -> o.admits(seen, seenMillis, CRASH));
  }

  @Test
  void anUnansweredPutMayBeMissingButAnInsertedOneMustBeThere() {
    JobFacts f = put(10, 0);
    assertTrue(admits(f, Outcome.ABSENT, CRASH));
    assertTrue(admits(f, Outcome.ready(10), CRASH));
    f.inserted(1_001);
    assertFalse(admits(f, Outcome.ABSENT, CRASH));
    assertFalse(admits(f, Outcome.ready(11), CRASH), "the put's priority");
  }

  @Test
  void aChangeWithoutReplyMayOrMayNotHaveHappened() {
    JobFacts f = put(10, 0);
    f.inserted(1_001);
    f.send(Outcome.ABSENT);
    assertTrue(admits(f, Outcome.ABSENT, CRASH));
    assertTrue(admits(f, Outcome.ready(10), CRASH));
    f.acknowledge(2_000);
    assertEquals(List.of(Outcome.ABSENT), f.allowed(), "an acknowledged delete");
  }

  @Test
  void aKickWhoseReplyNeverCameHappenedIfTheJobWasHandedOutAfterIt() {
    JobFacts f = put(949, 0);
    f.inserted(1_001);
    f.send(Outcome.buried(949));
    f.acknowledge(2_000);
    f.send(Outcome.ready(949));
    f.handedOut(3_000);
    f.send(Outcome.ready(1028));
    assertTrue(admits(f, Outcome.ready(949), CRASH), "the kick is durable: RESERVED came after it");
    assertFalse(admits(f, Outcome.buried(949), CRASH));
  }

  @Test
  void aDelayedReleaseIsReadyOnlyOnceItsDeadlinePassed() {
    JobFacts f = put(10, 0);
    f.inserted(1_001);
    f.send(Outcome.delayed(5, 10_000, 2_000));
    f.acknowledge(2_100);
    assertFalse(admits(f, Outcome.ready(5), 6_000), "ready 6 s early");
    assertTrue(admits(f, Outcome.ready(5), 12_100));
    assertTrue(admits(f, Outcome.delayedBetween(5, 11_000, 13_000), 4_000));
    assertFalse(admits(f, Outcome.delayedBetween(5, 30_000, 31_000), 20_000), "a deadline restarted late");
    assertFalse(admits(f, Outcome.delayedBetween(6, 11_000, 13_000), 4_000), "the release's priority");
  }
}
