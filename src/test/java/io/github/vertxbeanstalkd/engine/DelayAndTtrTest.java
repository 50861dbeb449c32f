package io.github.vertxbeanstalkd.engine;

import static io.github.vertxbeanstalkd.engine.Commands.bury;
import static io.github.vertxbeanstalkd.engine.Commands.delete;
import static io.github.vertxbeanstalkd.engine.Commands.peekDelayed;
import static io.github.vertxbeanstalkd.engine.Commands.put;
import static io.github.vertxbeanstalkd.engine.Commands.release;
import static io.github.vertxbeanstalkd.engine.Commands.reserve;
import static io.github.vertxbeanstalkd.engine.Commands.reserveWithTimeout;
import static io.github.vertxbeanstalkd.engine.Commands.touch;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** BEHAVIOURS.md 4-6: delays, TTR expiry and touch, on a fake clock. */
class DelayAndTtrTest {
  final EngineFixture f = new EngineFixture();
  final Session producer = f.open();
  final Session worker = f.open();

  @Test
  void aDelayedJobIsNotReservedBeforeItsDelayEnds() {
    f.send(producer, put(0, 5, 60, "later"));
    assertEquals("TIMED_OUT", f.one(worker, reserveWithTimeout(0)));
    f.passMillis(4_999);
    assertEquals("delayed", f.state(1));
    assertEquals("TIMED_OUT", f.one(worker, reserveWithTimeout(0)));
    f.passMillis(1);
    assertEquals("RESERVED 1 later", f.one(worker, reserveWithTimeout(0)));
  }

  @Test
  void theNextDeadlineIsTheDelayExpiry() {
    long t0 = f.clock.nanos();
    f.send(producer, put(0, 5, 60, "later"), put(0, 3, 60, "sooner"));
    assertEquals(t0 + 3 * FakeClock.SECOND, f.engine.nextDeadlineNanos());
  }

  @Test
  void peekDelayedShowsTheSoonestDeadline() {
    f.send(producer, put(0, 30, 60, "thirty"), put(0, 10, 60, "ten"), put(0, 20, 60, "twenty"));
    assertEquals("FOUND 2 ten", f.one(producer, peekDelayed()));
  }

  @Test
  void delayedJobsBecomeReadyAndKeepPriorityOrder() {
    f.send(producer, put(9, 2, 60, "a"), put(1, 1, 60, "b"));
    f.passSeconds(2);
    assertEquals(List.of("RESERVED 2 b", "RESERVED 1 a"), f.send(worker, reserve(), reserve()));
  }

  @Test
  void ttrExpiryReleasesTheJobOnTimeWhileTheHolderIsIdle() {
    f.send(producer, put(0, 0, 2, "job"));
    f.send(worker, reserve());
    f.passMillis(1_999);
    assertEquals("reserved", f.state(1));
    f.passMillis(1);
    var job = f.statsJob(1);
    assertEquals("ready", job.get("state"));
    assertEquals("1", job.get("timeouts"));
    assertEquals("1", job.get("reserves"));
    assertEquals("0", job.get("releases"));
    assertEquals("1", f.stats().get("job-timeouts"));
    assertEquals(List.of(), f.take(worker), "the idle holder is told nothing");
  }

  @Test
  void afterTtrExpiryTheOldHolderCanNoLongerReleaseBuryOrTouch() {
    f.send(producer, put(0, 0, 1, "job"));
    f.send(worker, reserve());
    f.passSeconds(1);
    assertEquals(List.of("NOT_FOUND", "NOT_FOUND", "NOT_FOUND"),
        f.send(worker, release(1, 0, 0), bury(1, 0), touch(1)));
    assertEquals("DELETED", f.one(worker, delete(1)), "anyone may delete a ready job");
  }

  @Test
  void aTtrOfZeroIsStoredAsOne() {
    f.send(producer, put(0, 0, 0, "job"));
    assertEquals("1", f.statsJob(1).get("ttr"));
    f.send(worker, reserve());
    f.passSeconds(1);
    assertEquals("ready", f.state(1));
  }

  @Test
  void touchRestartsTheFullTtr() {
    f.send(producer, put(0, 0, 10, "job"));
    f.send(worker, reserve());
    f.passSeconds(8);
    assertEquals("TOUCHED", f.one(worker, touch(1)));
    f.passSeconds(9);
    assertEquals("reserved", f.state(1));
    assertEquals("0", f.statsJob(1).get("timeouts"));
    f.passSeconds(1);
    assertEquals("ready", f.state(1));
  }

  @Test
  void touchOfAJobReservedByAnotherConnectionIsNotFound() {
    f.send(producer, put("job"));
    f.send(worker, reserve());
    assertEquals("NOT_FOUND", f.one(producer, touch(1)));
  }

  @Test
  void timeLeftOfAReservedJobCountsDownFromTheTtr() {
    f.send(producer, put(0, 0, 60, "job"));
    f.send(worker, reserve());
    f.passMillis(500);
    assertEquals("59", f.statsJob(1).get("time-left"));
  }
}
