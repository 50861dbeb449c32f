package io.github.vertxbeanstalkd.engine;

import static io.github.vertxbeanstalkd.engine.Commands.bury;
import static io.github.vertxbeanstalkd.engine.Commands.kick;
import static io.github.vertxbeanstalkd.engine.Commands.kickJob;
import static io.github.vertxbeanstalkd.engine.Commands.listTubeUsed;
import static io.github.vertxbeanstalkd.engine.Commands.peek;
import static io.github.vertxbeanstalkd.engine.Commands.put;
import static io.github.vertxbeanstalkd.engine.Commands.quit;
import static io.github.vertxbeanstalkd.engine.Commands.release;
import static io.github.vertxbeanstalkd.engine.Commands.reserve;
import static io.github.vertxbeanstalkd.engine.Commands.reserveJob;
import static io.github.vertxbeanstalkd.engine.Commands.reserveWithTimeout;
import static io.github.vertxbeanstalkd.engine.Commands.use;
import static io.github.vertxbeanstalkd.engine.Commands.watch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** BEHAVIOURS.md 1 and 5: connections blocked in a reserve, and what wakes them. */
class WaitingReserversTest {
  final EngineFixture f = new EngineFixture();
  final Session producer = f.open();
  final Session holder = f.open();
  final Session waiter = f.open();

  @Test
  void aBlockedReserveIsWokenByAPut() {
    assertEquals(List.of(), f.send(waiter, reserve()));
    f.send(producer, put("job"));
    assertEquals(List.of("RESERVED 1 job"), f.take(waiter));
  }

  @Test
  void aNegativeReserveWithTimeoutWaitsWithNoTimeoutAndCountsAsReserveWithTimeout() {
    // BEHAVIOURS.md 3 (required): the parser turns "reserve-with-timeout -1" into this command.
    assertEquals(List.of(), f.send(waiter, reserveWithTimeout(-1)));
    f.passSeconds(100L * 365 * 24 * 3600);
    assertEquals(List.of(), f.take(waiter));
    f.send(producer, put("job"));
    assertEquals(List.of("RESERVED 1 job"), f.take(waiter));
    assertEquals("1", f.stats().get("cmd-reserve-with-timeout"));
    assertEquals("0", f.stats().get("cmd-reserve"));
  }

  @Test
  void theLongestReserveWithTimeoutStillTimesOut() {
    // 2^31 - 1 seconds, the largest positive timeout 1.12's int holds: about 68 years.
    assertEquals(List.of(), f.send(waiter, reserveWithTimeout(Integer.MAX_VALUE)));
    f.passSeconds(Integer.MAX_VALUE - 1L);
    assertEquals(List.of(), f.take(waiter));
    f.passSeconds(1);
    assertEquals(List.of("TIMED_OUT"), f.take(waiter));
  }

  @Test
  void aBlockedReserveIsWokenByARelease() {
    f.send(producer, put("job"));
    f.send(holder, reserve());
    f.send(waiter, reserve());
    f.send(holder, release(1, 0, 0));
    assertEquals(List.of("RESERVED 1 job"), f.take(waiter));
  }

  @Test
  void aBlockedReserveIsWokenByAKick() {
    f.send(producer, put("job"));
    f.send(holder, reserve(), bury(1, 0));
    f.send(waiter, reserve());
    assertEquals("KICKED 1", f.one(producer, kick(1)));
    assertEquals(List.of("RESERVED 1 job"), f.take(waiter));
  }

  @Test
  void aBlockedReserveIsWokenByAKickJobInItsTube() {
    f.send(producer, use("x"), put(0, 30, 60, "job"));
    f.send(waiter, watch("x"), reserve());
    assertEquals("KICKED", f.one(holder, kickJob(1)));
    assertEquals(List.of("RESERVED 1 job"), f.take(waiter));
  }

  @Test
  void aBlockedReserveIsWokenWhenADelayEnds() {
    f.send(producer, put(0, 3, 60, "job"));
    f.send(waiter, reserve());
    f.passMillis(2_999);
    assertEquals(List.of(), f.take(waiter));
    f.passMillis(1);
    assertEquals(List.of("RESERVED 1 job"), f.take(waiter));
  }

  @Test
  void aBlockedReserveIsWokenByAnotherConnectionsTtrExpiry() {
    f.send(producer, put(0, 0, 2, "job"));
    f.send(holder, reserve());
    f.send(waiter, reserve());
    f.passSeconds(2);
    assertEquals(List.of("RESERVED 1 job"), f.take(waiter));
    assertEquals("1", f.statsJob(1).get("timeouts"));
  }

  @Test
  void aBlockedReserveIsWokenWhenTheHolderDisconnects() {
    f.send(producer, put("job"));
    f.send(holder, reserve());
    f.send(waiter, reserve());
    f.engine.close(holder.key);
    assertEquals(List.of("RESERVED 1 job"), f.take(waiter));
  }

  @Test
  void aBlockedReserveIsWokenWhenTheHolderQuits() {
    f.send(producer, put("job"));
    f.send(holder, reserve());
    f.send(waiter, reserve());
    assertEquals(List.of(), f.send(holder, quit(), peek(1)), "quit answers nothing, and nothing after it runs");
    assertEquals(List.of("RESERVED 1 job"), f.take(waiter));
  }

  @Test
  void eachJobGoesToExactlyOneOfSeveralWaitingReservers() {
    List<Session> waiters = List.of(f.open(), f.open(), f.open());
    for (Session w : waiters) {
      assertEquals(List.of(), f.send(w, reserve()));
    }
    f.send(producer, put("a"), put("b"));
    List<String> got = new ArrayList<>();
    for (Session w : waiters) {
      got.addAll(f.take(w));
    }
    got.sort(null);
    assertEquals(List.of("RESERVED 1 a", "RESERVED 2 b"), got);
    assertEquals("1", f.stats().get("current-waiting"));
    f.send(producer, put("c"));
    got.clear();
    for (Session w : waiters) {
      got.addAll(f.take(w));
    }
    assertEquals(List.of("RESERVED 3 c"), got);
  }

  @Test
  void aReserveWithTimeoutExpiresAfterItsSeconds() {
    assertEquals(List.of(), f.send(waiter, reserveWithTimeout(3)));
    f.passMillis(2_999);
    assertEquals(List.of(), f.take(waiter));
    f.passMillis(1);
    assertEquals(List.of("TIMED_OUT"), f.take(waiter));
    f.send(producer, put("late"));
    assertEquals(List.of(), f.take(waiter), "a timed-out reserve takes nothing later");
  }

  @Test
  void commandsQueuedBehindABlockedReserveRunAfterIt() {
    assertEquals(List.of(), f.send(waiter, reserve(), listTubeUsed(), peek(1)));
    assertEquals(null, f.sink.lastIsComplete(waiter.key), "nothing is delivered while the reserve blocks");
    f.send(producer, put("job"));
    assertEquals(List.of("RESERVED 1 job", "USING default", "FOUND 1 job"), f.take(waiter));
    assertEquals(Boolean.TRUE, f.sink.lastIsComplete(waiter.key));
  }

  @Test
  void repliesBeforeABlockedReserveAreDeliveredAsIncomplete() {
    assertEquals(List.of("USING default"), f.send(waiter, listTubeUsed(), reserve(), listTubeUsed()));
    assertEquals(Boolean.FALSE, f.sink.lastIsComplete(waiter.key));
    f.send(producer, put("job"));
    assertEquals(List.of("RESERVED 1 job", "USING default"), f.take(waiter));
    assertEquals(Boolean.TRUE, f.sink.lastIsComplete(waiter.key));
  }

  @Test
  void aDisconnectReturnsReservedJobsToReadyWithoutCountingATimeoutOrRelease() {
    f.send(producer, put("a"), put("b"));
    f.send(holder, reserve(), reserveJob(2));
    f.engine.close(holder.key);
    for (long id : new long[] {1, 2}) {
      var job = f.statsJob(id);
      assertEquals("ready", job.get("state"));
      assertEquals("0", job.get("timeouts"));
      assertEquals("0", job.get("releases"));
    }
  }

  @Test
  void aDisconnectedWaiterIsNoLongerWaiting() {
    f.send(waiter, reserve());
    assertEquals("1", f.stats().get("current-waiting"));
    f.engine.close(waiter.key);
    assertEquals("0", f.stats().get("current-waiting"));
    f.send(producer, put("job"));
    assertEquals("ready", f.state(1));
    assertEquals(List.of(), f.take(waiter));
  }

  @Test
  void aWaiterIsServedFromAnyOfItsWatchedTubes() {
    f.send(waiter, watch("x"), reserve());
    f.take(waiter);
    f.send(producer, use("x"), put("job"));
    assertEquals(List.of("RESERVED 1 job"), f.take(waiter));
    assertEquals("0", f.statsTube("x").get("current-waiting"));
    assertEquals("0", f.statsTube("default").get("current-waiting"));
  }

  @Test
  void aWaiterIsNotServedFromAnUnwatchedTube() {
    f.send(waiter, reserve());
    f.send(producer, use("x"), put("job"));
    assertEquals(List.of(), f.take(waiter));
    assertNotEquals("reserved", f.state(1));
    assertTrue(f.engine.session(waiter.key) != null);
  }
}
