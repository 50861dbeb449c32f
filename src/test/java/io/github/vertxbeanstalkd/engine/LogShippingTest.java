package io.github.vertxbeanstalkd.engine;

import static io.github.vertxbeanstalkd.engine.Commands.bury;
import static io.github.vertxbeanstalkd.engine.Commands.delete;
import static io.github.vertxbeanstalkd.engine.Commands.kick;
import static io.github.vertxbeanstalkd.engine.Commands.kickJob;
import static io.github.vertxbeanstalkd.engine.Commands.pauseTube;
import static io.github.vertxbeanstalkd.engine.Commands.peek;
import static io.github.vertxbeanstalkd.engine.Commands.put;
import static io.github.vertxbeanstalkd.engine.Commands.release;
import static io.github.vertxbeanstalkd.engine.Commands.reserveJob;
import static io.github.vertxbeanstalkd.engine.Commands.reserveWithTimeout;
import static io.github.vertxbeanstalkd.engine.Commands.use;
import static io.github.vertxbeanstalkd.engine.Commands.watch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.persistence.BinlogRecord;
import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.TubeSettings;
import io.github.vertxbeanstalkd.persistence.ReceivedFrames;
import io.github.vertxbeanstalkd.persistence.RecordFrames;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Log shipping between two engines on fake clocks: what a primary logs, a standby applies, and the
 * standby then holds the same jobs as a restart of the primary would (reserved ones ready); a
 * standby that joins late copies the live jobs, then follows; a primary's replies wait for its
 * acknowledgements.
 */
class LogShippingTest {
  private final EngineFixture primary = new EngineFixture();
  /** What the primary streamed, in its order: records, and the slices of copies read in between. */
  private final List<Object> shipped = new ArrayList<>();
  /** A primary whose every change is acknowledged at once, under a lease that lasts. */
  private void replicate() {
    replicateUnacknowledged();
    primary.engine.shipping().renewLease(System.nanoTime(), Long.MAX_VALUE / 4);
    primary.engine.shipping().acknowledge(Long.MAX_VALUE);
  }

  private void replicateUnacknowledged() {
    primary.engine.shipping().replicateTo(new ChangeStream() {
      @Override
      public void appended(long sequence, BinlogRecord record) {
        shipped.add(record);
      }

      @Override
      public void copied(CopySlice slice) {
        shipped.add(slice);
      }
    });
    primary.engine.shipping().allowIds(1, Long.MAX_VALUE);
  }

  /** A primary whose lease runs 3 s from now and whose changes need no standby's acknowledgement. */
  private void leasedFor3sAcknowledgingAlone() {
    replicateUnacknowledged();
    primary.engine.shipping().renewLease(System.nanoTime(), 3 * FakeClock.SECOND);
    primary.engine.shipping().acknowledge(Long.MAX_VALUE);
  }

  /** Applies what was streamed to {@code standby}, in order, a slice as Shipper sends it: its frames as they are. */
  private void ship(EngineFixture standby) {
    List<BinlogRecord> records = new ArrayList<>();
    for (Object o : shipped) {
      if (o instanceof CopySlice slice) {
        records.addAll(ReceivedFrames.decode(java.util.Arrays.copyOf(slice.frames(), slice.frameBytes())).records());
      } else {
        records.add((BinlogRecord) o);
      }
    }
    standby.engine.shipping().apply(ReceivedFrames.decode(RecordFrames.encode(records)));
    shipped.clear();
  }

  /** Reads the next slice of a copy at {@code cursor}; the cursor of the one after, -1 after the last. */
  private int slice(int cursor, int maxBytes) {
    primary.engine.shipping().copySlice("late", 1, cursor, maxBytes);
    return ((CopySlice) shipped.get(shipped.size() - 1)).nextCursor();
  }

  /**
   * One random command on the primary (a put, reserve-job, release, bury, kick-job, delete, or
   * 300 ms passing on every fixture); the highest id put so far.
   */
  private long randomStep(Random random, Session producer, Session worker, long lastId, EngineFixture... others) {
    int kind = random.nextInt(10);
    long id = 1 + random.nextInt((int) Math.max(1, lastId));
    if (kind < 4) {
      primary.send(producer, use("t" + random.nextInt(3)));
      String reply = primary.one(producer, put(random.nextInt(5), random.nextInt(3), 60, "job-" + random.nextInt()));
      return Long.parseLong(reply.substring("INSERTED ".length()));
    } else if (kind == 4) {
      primary.send(worker, reserveJob(id));
    } else if (kind == 5) {
      primary.send(worker, release(id, random.nextInt(5), random.nextInt(2)));
    } else if (kind == 6) {
      primary.send(worker, bury(id, random.nextInt(5)));
    } else if (kind == 7) {
      primary.send(producer, kickJob(id));
    } else if (kind == 8) {
      primary.send(random.nextBoolean() ? worker : producer, delete(id));
    } else {
      primary.passMillis(300);
      for (EngineFixture other : others) {
        other.passMillis(300);
      }
    }
    return lastId;
  }

  @Test
  void aStandbyHoldsWhatARestartOfThePrimaryWouldHold() {
    replicate();
    EngineFixture standby = new EngineFixture();
    Random random = new Random(7);
    Session producer = primary.open();
    Session worker = primary.open();
    long lastId = 0;
    for (int step = 0; step < 3_000; step++) {
      lastId = randomStep(random, producer, worker, lastId, standby);
      if (step % 50 == 0) {
        ship(standby);
      }
    }
    ship(standby);
    // Delays are absolute: once the longest (2 s) is over on both clocks, both agree whatever
    // moment each copy was made at.
    primary.passSeconds(3);
    standby.passSeconds(3);
    assertSameJobs(primary, standby, lastId);
  }

  @Test
  void aStandbyThatJoinsLateCopiesTheLiveJobsThenFollows() {
    replicate();
    Session producer = primary.open();
    for (int i = 0; i < 300; i++) {
      primary.send(producer, put(i % 7, i % 3 == 0 ? 1 : 0, 60, "early-" + i));
    }
    shipped.clear();
    EngineFixture late = new EngineFixture();
    // Changes while the copy is under way go into the stream, between the slices.
    int cursor = slice(0, 2_000);
    primary.send(producer, delete(1), delete(300), put("late"));
    while (cursor >= 0) {
      cursor = slice(cursor, 2_000);
    }
    ship(late);
    assertSameJobs(primary, late, 301);
  }

  @Test
  void aStandbyThatCopiedATubeCountsItsBodyBytesAgainstMaxBytes() {
    replicate();
    primary.engine.setTubeSettings("capped", new TubeSettings(null, 10L, null, null));
    Session producer = primary.open();
    primary.one(producer, use("capped"));
    assertEquals("INSERTED 1", primary.one(producer, put("1234")));
    assertEquals("INSERTED 2", primary.one(producer, put("1234")));
    shipped.clear();
    EngineFixture late = new EngineFixture();
    for (int cursor = 0; cursor >= 0; ) {
      cursor = slice(cursor, 2_000);
    }
    ship(late);
    // Promoted, it holds 8 of the tube's 10 bytes: a third body of 4 does not fit, as on the primary.
    Session client = late.open();
    late.one(client, use("capped"));
    assertEquals("OUT_OF_MEMORY", late.one(client, put("1234")));
    assertEquals("OUT_OF_MEMORY", primary.one(producer, put("1234")));
  }

  @Test
  void aCopyTakenWhileJobsArePutChangedAndDeletedEndsWithThePrimarysJobs() {
    replicate();
    Random random = new Random(11);
    Session producer = primary.open();
    Session worker = primary.open();
    long lastId = 0;
    for (int step = 0; step < 2_000; step++) {
      lastId = randomStep(random, producer, worker, lastId);
    }
    EngineFixture late = new EngineFixture();
    // The late standby's stream starts with its copy's first slice.
    shipped.clear();
    int slices = 0;
    for (int cursor = 0; cursor >= 0; slices++) {
      // A few jobs a slice, and commands between every two, so most jobs change while the copy runs.
      cursor = slice(cursor, 300);
      for (int k = 0; k < 4; k++) {
        lastId = randomStep(random, producer, worker, lastId, late);
      }
      if (slices % 7 == 0) {
        ship(late);
      }
    }
    for (int step = 0; step < 200; step++) {
      lastId = randomStep(random, producer, worker, lastId, late);
    }
    ship(late);
    assertTrue(slices > 50, "the copy took " + slices + " slices");
    primary.passSeconds(3);
    late.passSeconds(3);
    assertSameJobs(primary, late, lastId);
  }

  @Test
  void aReplyWaitsForItsAcknowledgement() {
    replicateUnacknowledged();
    primary.engine.shipping().renewLease(System.nanoTime(), 10 * FakeClock.SECOND);
    Session producer = primary.open();
    primary.engine.submit(producer.key, List.of(put("x")), io.github.vertxbeanstalkd.bus.Scope.NONE);
    assertEquals(List.of(), primary.take(producer), "no reply before a standby acknowledged");
    primary.engine.shipping().acknowledge(primary.engine.shipping().lastSequence());
    assertEquals(List.of("INSERTED 1"), primary.take(producer));
  }

  @Test
  void theBinlogsFsyncAloneReleasesNoReplyOfAReplicatedPrimary() {
    replicateUnacknowledged();
    primary.engine.shipping().renewLease(System.nanoTime(), 10 * FakeClock.SECOND);
    primary.engine.shipping().acknowledge(0);
    Session producer = primary.open();
    primary.engine.submit(producer.key, List.of(put("x")), io.github.vertxbeanstalkd.bus.Scope.NONE);
    long sequence = primary.engine.shipping().lastSequence();
    // What the binlog's writer says once its fsync is done: durable here, not yet on any standby.
    primary.engine.onDurable(sequence);
    assertEquals(List.of(), primary.take(producer), "a reply left on the local fsync alone, before minAcks standbys had it");
    primary.engine.shipping().acknowledge(sequence);
    assertEquals(List.of("INSERTED 1"), primary.take(producer));
  }

  @Test
  void aPrimaryThatServedAloneWaitsForItsStandbysAgainOnceTheyAreBack() {
    replicateUnacknowledged();
    primary.engine.shipping().renewLease(System.nanoTime(), 10 * FakeClock.SECOND);
    Session producer = primary.open();
    // whenTooFewStandbys "serve" with no standby yet: everything is acknowledged on the primary alone.
    primary.engine.shipping().acknowledge(Long.MAX_VALUE);
    assertEquals("INSERTED 1", primary.one(producer, put("alone")));
    // A standby caught up and acknowledged what it has: from now on a change waits for it again.
    primary.engine.shipping().acknowledge(primary.engine.shipping().lastSequence());
    primary.engine.submit(producer.key, List.of(put("replicated")), io.github.vertxbeanstalkd.bus.Scope.NONE);
    assertEquals(List.of(), primary.take(producer), "acknowledged alone although a standby is back");
    primary.engine.shipping().acknowledge(primary.engine.shipping().lastSequence());
    assertEquals(List.of("INSERTED 2"), primary.take(producer));
  }

  @Test
  void aPrimaryWhoseLeaseRanOutAcknowledgesNothingUntilItIsRenewed() {
    leasedFor3sAcknowledgingAlone();
    Session producer = primary.open();
    assertEquals("INSERTED 1", primary.one(producer, put("before")));
    // A pause longer than the lease (SIGSTOP): whatever runs first afterwards, nothing is acknowledged.
    primary.clock.advanceMillis(5_000);
    primary.engine.submit(producer.key, List.of(put("after")), io.github.vertxbeanstalkd.bus.Scope.NONE);
    primary.engine.shipping().acknowledge(Long.MAX_VALUE);
    assertEquals(List.of(), primary.take(producer), "acknowledged with a stale lease");
    primary.engine.shipping().renewLease(System.nanoTime(), 3 * FakeClock.SECOND);
    assertEquals(List.of("INSERTED 2"), primary.take(producer));
  }

  @Test
  void aPrimaryWhoseLeaseRanOutHandsOutNoJobToAReserveThatWaited() {
    leasedFor3sAcknowledgingAlone();
    Session producer = primary.open();
    Session consumer = primary.open();
    assertEquals("INSERTED 1", primary.one(producer, put(0, 1, 60, "delayed")));
    primary.engine.submit(consumer.key, List.of(reserveWithTimeout(10)), io.github.vertxbeanstalkd.bus.Scope.NONE);
    assertEquals(List.of(), primary.take(consumer), "waits: the job is delayed");
    // Paused past its lease (SIGSTOP): the delay ends as it resumes, with nothing new logged, while
    // another node may have promoted and had the job reserved and deleted.
    primary.passMillis(5_000);
    assertEquals(List.of(), primary.take(consumer), "a job handed out on a stale lease");
    // The lock is lost: it steps down, and the reserve's reply says the command failed.
    primary.engine.shipping().stopReplicating();
    assertEquals(List.of("INTERNAL_ERROR"), primary.take(consumer));
  }

  @Test
  void aPrimaryWhoseLeaseIsRenewedAnswersWhatWaited() {
    leasedFor3sAcknowledgingAlone();
    Session producer = primary.open();
    Session consumer = primary.open();
    primary.send(producer, put("x"));
    primary.clock.advanceMillis(5_000);
    primary.engine.submit(consumer.key, List.of(reserveWithTimeout(0)), io.github.vertxbeanstalkd.bus.Scope.NONE);
    assertEquals(List.of(), primary.take(consumer), "answered on a stale lease");
    primary.engine.shipping().renewLease(System.nanoTime(), 3 * FakeClock.SECOND);
    assertEquals(1, primary.take(consumer).size(), "the reserve's reply once the lock is confirmed again");
  }

  @Test
  void aPrimarysRepliesMustReachTheirClientsBeforeItsLeaseRunsOut() {
    assertEquals(io.github.vertxbeanstalkd.bus.EngineReplies.NO_DEADLINE, primary.engine.answerBeforeNanos(),
        "a node that is not replicated");
    leasedFor3sAcknowledgingAlone();
    long expected = System.nanoTime() + 3 * FakeClock.SECOND;
    assertTrue(Math.abs(primary.engine.answerBeforeNanos() - expected) < 1_000_000_000L);
    primary.clock.advanceMillis(2_000);
    long left = primary.engine.answerBeforeNanos() - System.nanoTime();
    assertTrue(left > 0 && left <= 1_000_000_000L, "the lease's end, not a fresh second: " + left);
    primary.engine.shipping().stopReplicating();
    assertEquals(io.github.vertxbeanstalkd.bus.EngineReplies.NO_DEADLINE, primary.engine.answerBeforeNanos(),
        "a primary that stepped down answers only what it may say as a standby");
  }

  @Test
  void aConfirmationThatWaitedOutAPauseRenewsNothing() {
    replicateUnacknowledged();
    Session producer = primary.open();
    primary.engine.shipping().acknowledge(Long.MAX_VALUE);
    // The lock was confirmed 5 s ago (the renewal sat in a queue while the process was stopped).
    primary.engine.shipping().renewLease(System.nanoTime() - 5 * FakeClock.SECOND, 3 * FakeClock.SECOND);
    primary.engine.submit(producer.key, List.of(put("x")), io.github.vertxbeanstalkd.bus.Scope.NONE);
    assertEquals(List.of(), primary.take(producer), "acknowledged on a lease that ran out during the pause");
  }

  @Test
  void aStandbyChangesNothingOfItsOwnAndHandsOutNoJob() {
    replicate();
    Session producer = primary.open();
    primary.send(producer, use("work"), put("a"), put(0, 5, 60, "later"), put("c"));
    EngineFixture standby = new EngineFixture();
    standby.engine.shipping().follow();
    ship(standby);
    assertSameJobs(primary, standby, 3);
    // Its admin page's changes (a session of its own), or a client's command read late.
    Session local = standby.open();
    standby.one(local, use("work"));
    for (Command change : List.of(delete(1), kickJob(2), kick(5), put("own"), reserveWithTimeout(0),
        reserveJob(3), pauseTube("work", 60))) {
      assertEquals("INTERNAL_ERROR", standby.one(local, change), change.toString());
    }
    assertSameJobs(primary, standby, 3);
    // Reads go on, and the primary's records still apply.
    assertEquals("FOUND 1 a", standby.one(local, peek(1)));
    primary.send(producer, delete(1));
    ship(standby);
    assertSameJobs(primary, standby, 3);
  }

  @Test
  void aPrimaryThatSteppedDownAnswersReadsButHandsOutNothing() {
    replicate();
    Session producer = primary.open();
    Session waiting = primary.open();
    primary.send(producer, use("work"), put(0, 2, 60, "delayed"));
    primary.send(waiting, watch("work"));
    assertEquals(List.of(), primary.send(waiting, reserveWithTimeout(10)), "waits: the job is delayed");
    // The lock is lost; the next primary holds the jobs now, and may hand this one to another client.
    primary.engine.shipping().stopReplicating();
    primary.passMillis(3_000);
    assertEquals(List.of(), primary.take(waiting), "a job handed out by a primary that stepped down");
    primary.passMillis(8_000);
    assertEquals(List.of("TIMED_OUT"), primary.take(waiting));
    assertEquals("INTERNAL_ERROR", primary.one(waiting, reserveWithTimeout(0)));
    assertEquals("INTERNAL_ERROR", primary.one(producer, delete(1)));
    // What it still answers waits for its own binlog alone, not for a lock it no longer holds.
    assertEquals("FOUND 1 delayed", primary.one(producer, peek(1)));
  }

  @Test
  void changesAreRefusedWhileTheGateSaysSoButDeletesGoOn() {
    replicate();
    Session producer = primary.open();
    primary.send(producer, put("kept"));
    primary.engine.shipping().acceptChanges(false);
    assertEquals("INTERNAL_ERROR", primary.one(producer, put("refused")));
    assertEquals("DELETED", primary.one(producer, delete(1)));
  }

  @Test
  void repliesThatWillNeverBeAcknowledgedAnswerInternalError() {
    replicateUnacknowledged();
    Session producer = primary.open();
    primary.engine.submit(producer.key, List.of(put("x"), put("y")), io.github.vertxbeanstalkd.bus.Scope.NONE);
    primary.engine.shipping().failUnacknowledged();
    assertEquals(List.of("INTERNAL_ERROR", "INTERNAL_ERROR"), primary.take(producer));
  }

  @Test
  void aCopyCarriesTheIdsOfJobsAlreadyDeleted() {
    replicate();
    Session producer = primary.open();
    primary.send(producer, put("a"), put("b"), put("c"), delete(1), delete(2), delete(3));
    shipped.clear();
    EngineFixture late = new EngineFixture();
    // What Shipper sends first in a copy: the high-water mark, then the live jobs (none here).
    late.engine.shipping().apply(ReceivedFrames.decode(RecordFrames.encode(
        List.of(new BinlogRecord.HighWater(primary.engine.shipping().nextJobId())))));
    assertEquals("INSERTED 4", late.one(late.open(), put("after the failover")));
  }

  @Test
  void idsContinueAboveEveryIdTheStandbySaw() {
    replicate();
    EngineFixture standby = new EngineFixture();
    Session producer = primary.open();
    primary.send(producer, put("a"), put("b"), delete(2));
    ship(standby);
    Session after = standby.open();
    assertEquals("INSERTED 3", standby.one(after, put("c")));
  }

  /** Every id up to {@code lastId}: present on both or neither, with the same tube, priority, body and state. */
  private static void assertSameJobs(EngineFixture primary, EngineFixture standby, long lastId) {
    int live = 0;
    for (long id = 1; id <= lastId; id++) {
      Session lookP = primary.open();
      Session lookS = standby.open();
      String onPrimary = primary.one(lookP, Commands.peek(id));
      String onStandby = standby.one(lookS, Commands.peek(id));
      assertEquals(onPrimary, onStandby, "job " + id);
      if (onPrimary.startsWith("FOUND")) {
        live++;
        Map<String, String> p = primary.statsJob(id);
        Map<String, String> s = standby.statsJob(id);
        // The counters are those of the job's last logged change: a reserve of a ready job is not logged.
        for (String key : List.of("tube", "pri", "delay", "ttr")) {
          assertEquals(p.get(key), s.get(key), key + " of job " + id);
        }
        String expected = p.get("state").equals("reserved") ? "ready" : p.get("state");
        assertEquals(expected, s.get("state"), "state of job " + id);
      }
    }
    assertTrue(live > 0, "the scenario left live jobs to compare");
    assertFalse(standby.stats().get("current-jobs-reserved").equals("1"));
  }

  @Test
  void aPrimaryIssuesIdsOnlyFromTheRangeItWasGiven() {
    replicate();
    Session producer = primary.open();
    primary.engine.shipping().allowIds(1, 3);
    assertEquals("INSERTED 1", primary.one(producer, put(0, 0, 60, "a")));
    assertEquals("INSERTED 2", primary.one(producer, put(0, 0, 60, "b")));
    assertEquals("INTERNAL_ERROR", primary.one(producer, put(0, 0, 60, "c")));
    // The next range, taken after another primary's: ids go on from its start.
    primary.engine.shipping().allowIds(10, 20);
    assertEquals("INSERTED 10", primary.one(producer, put(0, 0, 60, "d")));
  }

  @Test
  void aNodeThatBecomesPrimaryIssuesNoIdBeforeItIsGivenARange() {
    replicateUnacknowledged();
    primary.engine.shipping().renewLease(System.nanoTime(), Long.MAX_VALUE / 4);
    primary.engine.shipping().acknowledge(Long.MAX_VALUE);
    primary.engine.shipping().stopReplicating();
    replicateUnacknowledged();
    primary.engine.shipping().allowIds(0, 0);
    primary.engine.shipping().renewLease(System.nanoTime(), Long.MAX_VALUE / 4);
    primary.engine.shipping().acknowledge(Long.MAX_VALUE);
    Session producer = primary.open();
    assertEquals("INTERNAL_ERROR", primary.one(producer, put(0, 0, 60, "a")));
  }
}
