package io.github.vertxbeanstalkd.engine;

import static io.github.vertxbeanstalkd.engine.Commands.delete;
import static io.github.vertxbeanstalkd.engine.Commands.ignore;
import static io.github.vertxbeanstalkd.engine.Commands.pauseTube;
import static io.github.vertxbeanstalkd.engine.Commands.peekReady;
import static io.github.vertxbeanstalkd.engine.Commands.put;
import static io.github.vertxbeanstalkd.engine.Commands.reserve;
import static io.github.vertxbeanstalkd.engine.Commands.statsTube;
import static io.github.vertxbeanstalkd.engine.Commands.use;
import static io.github.vertxbeanstalkd.engine.Commands.watch;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** BEHAVIOURS.md 9: tube creation, deletion, and the order of list-tubes and the watch list. */
class TubeLifecycleTest {
  final EngineFixture f = new EngineFixture();
  final Session a = f.open();
  final Session b = f.open();

  @Test
  void onlyUseAndWatchCreateTubes() {
    assertEquals(List.of("NOT_FOUND", "NOT_FOUND", "WATCHING 1", "NOT_FOUND"),
        f.send(a, statsTube("x"), pauseTube("x", 5), ignore("x"), peekReady()));
    assertEquals(List.of("default"), f.listTubes());
    f.send(a, use("u"));
    f.send(b, watch("w"));
    assertEquals(List.of("default", "u", "w"), f.listTubes());
  }

  @Test
  void aTubeIsDeletedAsSoonAsItsLastUserLeaves() {
    f.send(a, use("x"));
    f.send(a, use("default"));
    assertEquals(List.of("default"), f.listTubes());
  }

  @Test
  void aTubeIsDeletedAsSoonAsItsLastWatcherIgnoresIt() {
    f.send(a, watch("x"), ignore("x"));
    assertEquals(List.of("default"), f.listTubes());
  }

  @Test
  void aTubeIsDeletedWhenItsLastJobIsDeleted() {
    f.send(a, use("x"), put("job"), use("default"));
    assertEquals(List.of("default", "x"), f.listTubes());
    f.one(a, delete(1));
    assertEquals(List.of("default"), f.listTubes());
  }

  @Test
  void aReservedJobKeepsItsTubeAlive() {
    f.send(a, use("x"), put("job"));
    f.send(b, watch("x"), ignore("default"), reserve(), watch("default"), ignore("x"));
    f.send(a, use("default"));
    assertEquals(List.of("default", "x"), f.listTubes());
    assertEquals("reserved", f.state(1));
    f.one(b, delete(1));
    assertEquals(List.of("default"), f.listTubes());
  }

  @Test
  void aPauseDoesNotKeepATubeAlive() {
    f.send(a, use("x"), pauseTube("x", 100), use("default"));
    assertEquals(List.of("default"), f.listTubes());
  }

  @Test
  void aRecreatedTubeHasNoPauseAndFreshCounters() {
    f.send(a, use("x"), put("job"), delete(1), pauseTube("x", 100), use("default"));
    f.send(a, use("x"));
    var tube = f.statsTube("x");
    assertEquals("0", tube.get("pause"));
    assertEquals("0", tube.get("cmd-pause-tube"));
    assertEquals("0", tube.get("cmd-delete"));
    assertEquals("0", tube.get("total-jobs"));
    f.send(a, put("again"));
    assertEquals(List.of("RESERVED 2 again"), f.send(b, watch("x"), reserve()).subList(1, 2));
  }

  @Test
  void theDefaultTubeIsNeverDeleted() {
    f.send(a, use("x"), watch("x"), ignore("default"));
    f.send(b, use("x"), watch("x"), ignore("default"));
    assertEquals(List.of("default", "x"), f.listTubes());
  }

  @Test
  void listTubesMovesTheLastEntryIntoTheHoleOfADeletedTube() {
    f.send(a, watch("t1"), watch("t2"), watch("t3"), watch("t4"));
    assertEquals(List.of("default", "t1", "t2", "t3", "t4"), f.listTubes());
    f.send(a, ignore("t2"));
    assertEquals(List.of("default", "t1", "t4", "t3"), f.listTubes());
  }

  @Test
  void theWatchListMovesItsLastEntryIntoTheHole() {
    f.send(a, watch("a"), watch("b"), watch("c"), ignore("default"));
    assertEquals(List.of("c", "a", "b"), f.watched(a));
  }

  @Test
  void watchingATubeTwiceLeavesTheCountUnchanged() {
    assertEquals(List.of("WATCHING 2", "WATCHING 2"), f.send(a, watch("x"), watch("x")));
    assertEquals("1", f.statsTube("x").get("current-watching"));
  }

  @Test
  void ignoreOfTheLastWatchedTubeIsNotIgnored() {
    assertEquals("NOT_IGNORED", f.one(a, ignore("default")));
    assertEquals(List.of("WATCHING 2", "WATCHING 1", "NOT_IGNORED"),
        f.send(a, watch("x"), ignore("default"), ignore("x")));
  }

  @Test
  void ignoreOfAnUnwatchedTubeAnswersTheWatchCount() {
    f.send(b, watch("other"));
    assertEquals("WATCHING 1", f.one(a, ignore("other")));
  }
}
