package io.github.vertxbeanstalkd.engine;

import static io.github.vertxbeanstalkd.engine.Commands.kick;
import static io.github.vertxbeanstalkd.engine.Commands.pauseTube;
import static io.github.vertxbeanstalkd.engine.Commands.peekReady;
import static io.github.vertxbeanstalkd.engine.Commands.put;
import static io.github.vertxbeanstalkd.engine.Commands.reserve;
import static io.github.vertxbeanstalkd.engine.Commands.reserveWithTimeout;
import static io.github.vertxbeanstalkd.engine.Commands.use;
import static io.github.vertxbeanstalkd.engine.Commands.watch;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** BEHAVIOURS.md 10: pause-tube. */
class PauseTubeTest {
  final EngineFixture f = new EngineFixture();
  final Session producer = f.open();
  final Session worker = f.open();

  @Test
  void jobsOfAPausedTubeAreNotReserved() {
    f.send(producer, put("job"));
    assertEquals("PAUSED", f.one(producer, pauseTube("default", 10)));
    assertEquals("TIMED_OUT", f.one(worker, reserveWithTimeout(0)));
  }

  @Test
  void otherWatchedTubesAreServedWhileOneIsPaused() {
    f.send(producer, put(0, 0, 60, "paused"), use("open"), put(5, 0, 60, "open"));
    f.send(worker, watch("open"));
    f.one(producer, pauseTube("default", 10));
    assertEquals("RESERVED 2 open", f.one(worker, reserve()));
  }

  @Test
  void thePauseEndsAfterItsSeconds() {
    f.send(producer, put("job"), pauseTube("default", 5));
    f.passMillis(4_999);
    assertEquals("TIMED_OUT", f.one(worker, reserveWithTimeout(0)));
    f.passMillis(1);
    assertEquals("RESERVED 1 job", f.one(worker, reserveWithTimeout(0)));
  }

  @Test
  void pauseZeroEndsAPauseAtOnce() {
    f.send(producer, put("job"), pauseTube("default", 100));
    assertEquals("PAUSED", f.one(producer, pauseTube("default", 0)));
    assertEquals("RESERVED 1 job", f.one(worker, reserveWithTimeout(0)));
    var tube = f.statsTube("default");
    assertEquals("0", tube.get("pause"));
    assertEquals("0", tube.get("pause-time-left"));
  }

  @Test
  void waitingReserversAreServedWhenThePauseEnds() {
    f.send(producer, pauseTube("default", 5), put("job"));
    assertEquals(List.of(), f.send(worker, reserve()));
    f.passMillis(4_999);
    assertEquals(List.of(), f.take(worker));
    f.passMillis(1);
    assertEquals(List.of("RESERVED 1 job"), f.take(worker));
  }

  @Test
  void waitingReserversAreServedByPauseZero() {
    f.send(producer, pauseTube("default", 60), put("job"));
    assertEquals(List.of(), f.send(worker, reserve()));
    f.one(producer, pauseTube("default", 0));
    assertEquals(List.of("RESERVED 1 job"), f.take(worker));
  }

  @Test
  void aNewPauseReplacesTheOldOne() {
    f.send(producer, put("job"), pauseTube("default", 100), pauseTube("default", 2));
    f.passSeconds(2);
    assertEquals("RESERVED 1 job", f.one(worker, reserveWithTimeout(0)));
  }

  @Test
  void peekReadyAndKickStillWorkOnAPausedTube() {
    f.send(producer, put("ready"), put(0, 30, 60, "delayed"), pauseTube("default", 100));
    assertEquals(List.of("FOUND 1 ready", "KICKED 1"), f.send(producer, peekReady(), kick(1)));
  }

  @Test
  void statsTubeShowsThePauseAndTimeLeftRoundedDown() {
    f.send(producer, pauseTube("default", 10));
    f.passMillis(2_500);
    var tube = f.statsTube("default");
    assertEquals("10", tube.get("pause"));
    assertEquals("7", tube.get("pause-time-left"));
    assertEquals("1", tube.get("cmd-pause-tube"));
  }

  @Test
  void pauseOfAnUnknownTubeIsNotFoundAndCreatesNothing() {
    assertEquals("NOT_FOUND", f.one(producer, pauseTube("nosuch", 10)));
    assertEquals(List.of("default"), f.listTubes());
  }
}
