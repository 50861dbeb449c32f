package io.github.vertxbeanstalkd.engine;

import static io.github.vertxbeanstalkd.engine.Commands.bury;
import static io.github.vertxbeanstalkd.engine.Commands.kick;
import static io.github.vertxbeanstalkd.engine.Commands.kickJob;
import static io.github.vertxbeanstalkd.engine.Commands.peekBuried;
import static io.github.vertxbeanstalkd.engine.Commands.peekReady;
import static io.github.vertxbeanstalkd.engine.Commands.put;
import static io.github.vertxbeanstalkd.engine.Commands.release;
import static io.github.vertxbeanstalkd.engine.Commands.reserve;
import static io.github.vertxbeanstalkd.engine.Commands.reserveJob;
import static io.github.vertxbeanstalkd.engine.Commands.use;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** BEHAVIOURS.md 7-8: release, bury, kick and kick-job. */
class ReleaseBuryKickTest {
  final EngineFixture f = new EngineFixture();
  final Session producer = f.open();
  final Session worker = f.open();

  @Test
  void releaseStoresTheNewPriority() {
    f.send(producer, put(5, 0, 60, "five"), put(3, 0, 60, "three"));
    assertEquals("RESERVED 2 three", f.one(worker, reserve()));
    assertEquals("RELEASED", f.one(worker, release(2, 10, 0)));
    assertEquals("RESERVED 1 five", f.one(worker, reserve()));
    var job = f.statsJob(2);
    assertEquals("10", job.get("pri"));
    assertEquals("1", job.get("releases"));
  }

  @Test
  void releaseWithADelayMakesTheJobDelayedForThatLong() {
    f.send(producer, put("job"));
    f.send(worker, reserve());
    assertEquals("RELEASED", f.one(worker, release(1, 0, 3)));
    var job = f.statsJob(1);
    assertEquals("delayed", job.get("state"));
    assertEquals("3", job.get("delay"));
    f.passMillis(2_999);
    assertEquals("delayed", f.state(1));
    f.passMillis(1);
    assertEquals("ready", f.state(1));
  }

  @Test
  void releaseOfAJobNotReservedByTheCallerIsNotFound() {
    f.send(producer, put("a"), put("b"));
    f.send(worker, reserve());
    assertEquals(List.of("NOT_FOUND", "NOT_FOUND", "NOT_FOUND"),
        f.send(producer, release(1, 0, 0), release(2, 0, 0), release(99, 0, 0)));
    assertEquals("reserved", f.state(1));
  }

  @Test
  void buryStoresTheNewPriorityAndKickKeepsIt() {
    f.send(producer, put(5, 0, 60, "job"));
    f.send(worker, reserve());
    assertEquals("BURIED", f.one(worker, bury(1, 77)));
    assertEquals("buried", f.state(1));
    f.send(producer, kick(1));
    var job = f.statsJob(1);
    assertEquals("ready", job.get("state"));
    assertEquals("77", job.get("pri"));
    assertEquals("1", job.get("buries"));
    assertEquals("1", job.get("kicks"));
  }

  @Test
  void buriedJobsAreKickedInBurialOrder() {
    f.send(producer, put("a"), put("b"), put("c"));
    f.send(worker, reserve(), reserve(), reserve());
    f.send(worker, bury(2, 0), bury(3, 0), bury(1, 0));
    assertEquals("FOUND 2 b", f.one(producer, peekBuried()));
    assertEquals("KICKED 2", f.one(producer, kick(2)));
    assertEquals(List.of("ready", "ready", "buried"), List.of(f.state(2), f.state(3), f.state(1)));
  }

  @Test
  void buryOfAJobNotReservedByTheCallerIsNotFound() {
    f.send(producer, put("a"));
    f.send(worker, reserve());
    assertEquals("NOT_FOUND", f.one(producer, bury(1, 0)));
  }

  @Test
  void kickTakesOnlyBuriedJobsWhileAnyExist() {
    f.send(producer, put("buried"), put(0, 60, 60, "delayed"));
    f.send(worker, reserve(), bury(1, 0));
    assertEquals("KICKED 1", f.one(producer, kick(10)), "fewer buried jobs than asked for");
    assertEquals("delayed", f.state(2));
    assertEquals("KICKED 1", f.one(producer, kick(10)));
    assertEquals("ready", f.state(2));
  }

  @Test
  void kickTakesDelayedJobsSoonestFirstAndKeepsTheirDelay() {
    f.send(producer, put(0, 30, 60, "thirty"), put(0, 10, 60, "ten"), put(0, 20, 60, "twenty"));
    assertEquals("KICKED 2", f.one(producer, kick(2)));
    assertEquals(List.of("delayed", "ready", "ready"), List.of(f.state(1), f.state(2), f.state(3)));
    var job = f.statsJob(2);
    assertEquals("10", job.get("delay"));
    assertEquals("1", job.get("kicks"));
  }

  @Test
  void kickZeroKicksNothing() {
    f.send(producer, put(0, 30, 60, "delayed"));
    assertEquals("KICKED 0", f.one(producer, kick(0)));
    assertEquals("delayed", f.state(1));
  }

  @Test
  void kickOfAnEmptyTubeAnswersKickedZero() {
    assertEquals("KICKED 0", f.one(producer, kick(5)));
  }

  @Test
  void kickWorksOnTheUsedTubeOnly() {
    f.send(producer, use("other"), put(0, 30, 60, "delayed"));
    assertEquals("KICKED 0", f.one(worker, kick(5)));
    assertEquals("delayed", f.state(1));
  }

  @Test
  void kickJobWorksOnABuriedOrDelayedJobInAnyTube() {
    f.send(producer, use("other"), put("buried"), put(0, 30, 60, "delayed"));
    f.send(worker, reserveJob(1), bury(1, 0));
    assertEquals(List.of("KICKED", "KICKED"), f.send(worker, kickJob(1), kickJob(2)));
    assertEquals(List.of("ready", "ready"), List.of(f.state(1), f.state(2)));
    assertEquals("FOUND 1 buried", f.one(producer, peekReady()));
  }

  @Test
  void kickJobOfAReadyReservedOrUnknownJobIsNotFound() {
    f.send(producer, put("ready"), put("reserved"));
    f.send(worker, reserveJob(2));
    assertEquals(List.of("NOT_FOUND", "NOT_FOUND", "NOT_FOUND"),
        f.send(producer, kickJob(1), kickJob(2), kickJob(3)));
  }
}
