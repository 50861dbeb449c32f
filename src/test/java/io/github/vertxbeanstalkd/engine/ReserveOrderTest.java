package io.github.vertxbeanstalkd.engine;

import static io.github.vertxbeanstalkd.engine.Commands.put;
import static io.github.vertxbeanstalkd.engine.Commands.release;
import static io.github.vertxbeanstalkd.engine.Commands.reserve;
import static io.github.vertxbeanstalkd.engine.Commands.reserveWithTimeout;
import static io.github.vertxbeanstalkd.engine.Commands.use;
import static io.github.vertxbeanstalkd.engine.Commands.watch;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** BEHAVIOURS.md 5: which job a reserve gets. */
class ReserveOrderTest {
  final EngineFixture f = new EngineFixture();
  final Session producer = f.open();
  final Session worker = f.open();

  @Test
  void reserveTakesTheSmallestPriorityFirst() {
    f.send(producer, put(5, 0, 60, "five"), put(1, 0, 60, "one"), put(3, 0, 60, "three"));
    assertEquals(List.of("RESERVED 2 one", "RESERVED 3 three", "RESERVED 1 five"),
        f.send(worker, reserve(), reserve(), reserve()));
  }

  @Test
  void reserveTakesTheSmallestIdAmongEqualPriorities() {
    f.send(producer, put(7, 0, 60, "a"), put(7, 0, 60, "b"), put(7, 0, 60, "c"));
    assertEquals(List.of("RESERVED 1 a", "RESERVED 2 b", "RESERVED 3 c"),
        f.send(worker, reserve(), reserve(), reserve()));
  }

  @Test
  void prioritiesCompareAsUnsigned32BitNumbers() {
    f.send(producer, put(4_294_967_295L, 0, 60, "max"), put(2_147_483_648L, 0, 60, "half"), put(1, 0, 60, "one"));
    assertEquals(List.of("RESERVED 3 one", "RESERVED 2 half", "RESERVED 1 max"),
        f.send(worker, reserve(), reserve(), reserve()));
  }

  @Test
  void reserveOrdersAcrossWatchedTubesByPriorityThenId() {
    f.send(producer, use("a"), put(10, 0, 60, "a10"), use("b"), put(5, 0, 60, "b5"),
        use("a"), put(5, 0, 60, "a5"), use("default"), put(5, 0, 60, "d5"));
    f.send(worker, watch("a"), watch("b"));
    assertEquals(List.of("RESERVED 2 b5", "RESERVED 3 a5", "RESERVED 4 d5", "RESERVED 1 a10"),
        f.send(worker, reserve(), reserve(), reserve(), reserve()));
  }

  @Test
  void aReleasedJobGoesBackInFrontOfLaterJobsOfTheSamePriority() {
    f.send(producer, put("first"), put("second"));
    assertEquals("RESERVED 1 first", f.one(worker, reserve()));
    assertEquals("RELEASED", f.one(worker, release(1, 0, 0)));
    assertEquals("RESERVED 1 first", f.one(worker, reserve()));
  }

  @Test
  void jobsInUnwatchedTubesAreNeverReserved() {
    f.send(producer, use("elsewhere"), put("x"));
    assertEquals("TIMED_OUT", f.one(worker, reserveWithTimeout(0)));
  }

  @Test
  void reserveWithTimeoutZeroAnswersAtOnceWithAReadyJob() {
    f.send(producer, put("x"));
    assertEquals("RESERVED 1 x", f.one(worker, reserveWithTimeout(0)));
  }
}
