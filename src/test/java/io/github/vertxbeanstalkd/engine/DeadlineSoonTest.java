package io.github.vertxbeanstalkd.engine;

import static io.github.vertxbeanstalkd.engine.Commands.put;
import static io.github.vertxbeanstalkd.engine.Commands.reserve;
import static io.github.vertxbeanstalkd.engine.Commands.reserveJob;
import static io.github.vertxbeanstalkd.engine.Commands.reserveWithTimeout;
import static io.github.vertxbeanstalkd.engine.Commands.touch;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** BEHAVIOURS.md 6: the one-second safety margin before a reserved job's deadline. */
class DeadlineSoonTest {
  final EngineFixture f = new EngineFixture();
  final Session producer = f.open();
  final Session worker = f.open();

  @Test
  void aReserveInsideTheMarginWithNoReadyJobAnswersDeadlineSoon() {
    f.send(producer, put(0, 0, 5, "job"));
    f.send(worker, reserve());
    f.passSeconds(4);
    assertEquals("DEADLINE_SOON", f.one(worker, reserveWithTimeout(10)));
    assertEquals("reserved", f.state(1), "DEADLINE_SOON changes nothing");
  }

  @Test
  void aReserveBeforeTheMarginTimesOutNormally() {
    f.send(producer, put(0, 0, 5, "job"));
    f.send(worker, reserve());
    assertEquals(List.of(), f.send(worker, reserveWithTimeout(2)));
    f.passMillis(2_000);
    assertEquals(List.of("TIMED_OUT"), f.take(worker));
  }

  @Test
  void aReserveInsideTheMarginIsHandedAReadyJobInstead() {
    f.send(producer, put(0, 0, 5, "first"), put(0, 0, 5, "second"));
    f.send(worker, reserve());
    f.passMillis(4_500);
    assertEquals("RESERVED 2 second", f.one(worker, reserve()));
  }

  @Test
  void aBlockedReserveIsAnsweredDeadlineSoonWhenTheMarginBegins() {
    f.send(producer, put(0, 0, 5, "job"));
    f.send(worker, reserve());
    assertEquals(List.of(), f.send(worker, reserve()));
    f.passMillis(3_999);
    assertEquals(List.of(), f.take(worker));
    f.passMillis(1);
    assertEquals(List.of("DEADLINE_SOON"), f.take(worker));
    assertEquals("reserved", f.state(1));
    f.passSeconds(1);
    assertEquals("ready", f.state(1));
  }

  @Test
  void aBlockedReserveWithTimeoutIsAlsoAnsweredDeadlineSoonWhenTheMarginBegins() {
    f.send(producer, put(0, 0, 3, "job"));
    f.send(worker, reserve());
    assertEquals(List.of(), f.send(worker, reserveWithTimeout(100)));
    f.passSeconds(2);
    assertEquals(List.of("DEADLINE_SOON"), f.take(worker));
  }

  @Test
  void withTtrOneEveryReserveAnswersDeadlineSoonAtOnce() {
    f.send(producer, put(0, 0, 1, "job"));
    f.send(worker, reserve());
    assertEquals(List.of("DEADLINE_SOON", "DEADLINE_SOON"), f.send(worker, reserve(), reserveWithTimeout(5)));
  }

  @Test
  void reserveJobNeverAnswersDeadlineSoon() {
    f.send(producer, put(0, 0, 1, "held"), put(0, 10, 60, "delayed"));
    assertEquals("RESERVED 1 held", f.one(worker, reserve()));
    assertEquals("DEADLINE_SOON", f.one(worker, reserveWithTimeout(0)), "the worker is inside its margin");
    assertEquals(List.of("RESERVED 2 delayed", "NOT_FOUND"), f.send(worker, reserveJob(2), reserveJob(99)));
  }

  @Test
  void touchMovesTheConnectionOutOfTheMargin() {
    f.send(producer, put(0, 0, 5, "job"));
    f.send(worker, reserve());
    f.passMillis(4_500);
    assertEquals("TOUCHED", f.one(worker, touch(1)));
    assertEquals("TIMED_OUT", f.one(worker, reserveWithTimeout(0)));
  }
}
