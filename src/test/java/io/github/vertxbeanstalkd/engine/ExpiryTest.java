package io.github.vertxbeanstalkd.engine;

import static io.github.vertxbeanstalkd.engine.Commands.put;
import static io.github.vertxbeanstalkd.engine.Commands.release;
import static io.github.vertxbeanstalkd.engine.Commands.reserve;
import static io.github.vertxbeanstalkd.engine.Commands.use;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.bus.EngineSnapshot;
import io.github.vertxbeanstalkd.bus.Scope;
import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.TubeSettings;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * maxAge: a ready or delayed job older than its tube's maxAge (since its put) is buried, or
 * deleted with expire "delete", by the engine's timer in bounded slices; reserved jobs never are.
 */
class ExpiryTest {
  final EngineFixture f = new EngineFixture();
  final Session producer = f.open();
  final Session worker = f.open();

  static TubeSettings maxAge(long seconds, String expire) {
    return new TubeSettings(null, null, null, null, seconds, expire);
  }

  String stateOrGone(long id) {
    String reply = f.one(producer, Commands.statsJob(id));
    return reply.equals("NOT_FOUND") ? "gone" : f.state(id);
  }

  @Test
  void aReadyJobOlderThanMaxAgeIsBuried() {
    f.engine.setTubeSettings("default", maxAge(10, null));
    f.one(producer, put("job"));
    f.passSeconds(9);
    assertEquals("ready", f.state(1));
    f.passSeconds(2);
    assertEquals("buried", f.state(1));
    assertEquals("1", f.statsJob(1).get("buries"));
    assertEquals(new EngineSnapshot.TubeRuleCounts(0, 0, 0, 1, 0), f.engine.snapshot().tubeRules().get("default"));
  }

  @Test
  void aDelayedJobWithExpireDeleteIsDeleted() {
    f.engine.setTubeSettings("default", maxAge(10, TubeSettings.DELETE));
    f.one(producer, put(0, 60, 60, "later"));
    f.passSeconds(11);
    assertEquals("gone", stateOrGone(1));
    assertEquals(new EngineSnapshot.TubeRuleCounts(0, 0, 0, 0, 1), f.engine.snapshot().tubeRules().get("default"));
  }

  @Test
  void theAgeCountsFromThePutNotFromARelease() {
    f.engine.setTubeSettings("default", maxAge(10, null));
    f.one(producer, put("job"));
    f.passSeconds(5);
    f.one(worker, reserve());
    f.passSeconds(3);
    assertEquals("RELEASED", f.one(worker, release(1, 0, 0)));
    f.passSeconds(3);
    assertEquals("buried", f.state(1));
  }

  @Test
  void aReservedJobIsNeverExpiredAndIsOnceReleased() {
    f.engine.setTubeSettings("default", maxAge(10, TubeSettings.DELETE));
    f.one(producer, put(0, 0, 120, "job"));
    f.one(worker, reserve());
    f.passSeconds(30);
    assertEquals("reserved", f.state(1));
    assertEquals("RELEASED", f.one(worker, release(1, 0, 0)));
    f.passSeconds(2);
    assertEquals("gone", stateOrGone(1));
  }

  @Test
  void everyTubesDefaultAppliesAndATubesOwnWins() {
    f.engine.setTubeSettings("*", maxAge(10, null));
    f.engine.setTubeSettings("keep", maxAge(0, null));
    f.send(producer, use("a"), put("a"), use("keep"), put("keep"));
    f.passSeconds(11);
    assertEquals("buried", f.state(1));
    assertEquals("ready", f.state(2), "maxAge 0 in the tube's own settings: never");
  }

  @Test
  void withoutMaxAgeNothingIsArmed() {
    f.one(producer, put("job"));
    assertEquals(Long.MAX_VALUE, f.engine.nextDeadlineNanos());
    f.engine.setTubeSettings("default", new TubeSettings(10L, null, null, null));
    assertEquals(Long.MAX_VALUE, f.engine.nextDeadlineNanos(), "other settings arm no timer either");
    f.passSeconds(3600);
    assertEquals("ready", f.state(1));
  }

  @Test
  void manyOldJobsExpireInBoundedSlices() {
    int jobs = 3 * TubeExpiry.JOBS_PER_SLICE + 5;
    List<Command> puts = new ArrayList<>();
    for (int i = 0; i < jobs; i++) {
      puts.add(i % 2 == 0 ? put("job") : put(0, 3600, 60, "later"));
    }
    f.engine.submit(producer.key, puts, Scope.NONE);
    f.take(producer);
    f.engine.setTubeSettings("default", maxAge(10, TubeSettings.DELETE));
    f.clock.advanceNanos(11 * FakeClock.SECOND);
    int ticks = 0;
    while (f.engine.nextDeadlineNanos() <= f.clock.nanos()) {
      long before = f.engine.snapshot().tubeRules().getOrDefault("default",
          new EngineSnapshot.TubeRuleCounts(0, 0, 0)).expiredDeleted();
      f.engine.tick();
      long after = f.engine.snapshot().tubeRules().get("default").expiredDeleted();
      assertTrue(after - before <= TubeExpiry.JOBS_PER_SLICE, "a tick expired " + (after - before));
      ticks++;
      assertTrue(ticks < 100, "the expiry never ends");
    }
    assertTrue(ticks >= 3, "took " + ticks + " ticks");
    assertEquals("0", f.stats().get("current-jobs-ready"));
    assertEquals("0", f.stats().get("current-jobs-delayed"));
  }
}
