package io.github.vertxbeanstalkd.engine;

import static io.github.vertxbeanstalkd.engine.Commands.bury;
import static io.github.vertxbeanstalkd.engine.Commands.delete;
import static io.github.vertxbeanstalkd.engine.Commands.pauseTube;
import static io.github.vertxbeanstalkd.engine.Commands.peek;
import static io.github.vertxbeanstalkd.engine.Commands.put;
import static io.github.vertxbeanstalkd.engine.Commands.reserve;
import static io.github.vertxbeanstalkd.engine.Commands.reserveJob;
import static io.github.vertxbeanstalkd.engine.Commands.reserveWithTimeout;
import static io.github.vertxbeanstalkd.engine.Commands.use;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** BEHAVIOURS.md 7: who may delete what, and reserve-job's states. */
class DeleteAndReserveJobTest {
  final EngineFixture f = new EngineFixture();
  final Session producer = f.open();
  final Session worker = f.open();

  @Test
  void deleteOfTheCallersOwnReservedJobSucceeds() {
    f.send(producer, put("job"));
    f.send(worker, reserve());
    assertEquals("DELETED", f.one(worker, delete(1)));
    assertEquals("NOT_FOUND", f.one(worker, peek(1)));
  }

  @Test
  void deleteOfAnotherConnectionsReservedJobIsNotFoundAndTheJobStaysReserved() {
    f.send(producer, put("job"));
    f.send(worker, reserve());
    assertEquals("NOT_FOUND", f.one(producer, delete(1)));
    assertEquals("reserved", f.state(1));
    assertEquals("DELETED", f.one(worker, delete(1)));
  }

  @Test
  void anyConnectionMayDeleteReadyDelayedAndBuriedJobs() {
    f.send(producer, put("ready"), put(0, 30, 60, "delayed"), put("buried"));
    f.send(producer, reserveJob(3), bury(3, 0));
    assertEquals(List.of("DELETED", "DELETED", "DELETED", "NOT_FOUND"),
        f.send(worker, delete(1), delete(2), delete(3), delete(1)));
    assertEquals("3", f.statsTube("default").get("cmd-delete"));
  }

  @Test
  void deleteOfAnUnknownIdIsNotFound() {
    assertEquals("NOT_FOUND", f.one(worker, delete(12345)));
  }

  @Test
  void reserveJobTakesReadyDelayedAndBuriedJobsInAnyTubeAndCountsAReserve() {
    f.send(producer, use("unwatched"), put("ready"), put(0, 30, 60, "delayed"), put("buried"));
    f.send(producer, reserveJob(3), bury(3, 0));
    assertEquals(List.of("RESERVED 1 ready", "RESERVED 2 delayed", "RESERVED 3 buried"),
        f.send(worker, reserveJob(1), reserveJob(2), reserveJob(3)));
    assertEquals("2", f.statsJob(3).get("reserves"));
    assertEquals("reserved", f.state(2));
  }

  @Test
  void reserveJobOfAReadyJobLeavesTheOtherReadyJobsInOrder() {
    f.send(producer, put(0, 0, 60, "a"), put(0, 0, 60, "b"), put(0, 0, 60, "c"));
    assertEquals(List.of("RESERVED 2 b", "RESERVED 1 a", "RESERVED 3 c", "TIMED_OUT"),
        f.send(worker, reserveJob(2), reserve(), reserve(), reserveWithTimeout(0)));
    assertEquals("0", f.stats().get("current-jobs-ready"));
  }

  @Test
  void reserveJobIgnoresAPause() {
    f.send(producer, put("job"), pauseTube("default", 100));
    assertEquals("RESERVED 1 job", f.one(worker, reserveJob(1)));
  }

  @Test
  void reserveJobOfAnAlreadyReservedJobIsNotFoundEvenForItsHolder() {
    f.send(producer, put("job"));
    f.send(worker, reserveJob(1));
    assertEquals("NOT_FOUND", f.one(worker, reserveJob(1)));
    assertEquals("NOT_FOUND", f.one(producer, reserveJob(1)));
    assertEquals("NOT_FOUND", f.one(producer, reserveJob(2)));
  }

  @Test
  void aJobReservedByReserveJobHasItsTtrClockRunning() {
    f.send(producer, put(0, 0, 2, "job"));
    f.send(worker, reserveJob(1));
    f.passSeconds(2);
    assertEquals("ready", f.state(1));
    assertEquals("1", f.statsJob(1).get("timeouts"));
  }
}
