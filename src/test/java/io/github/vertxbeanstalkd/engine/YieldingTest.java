package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.bus.Scope;
import static io.github.vertxbeanstalkd.engine.Commands.bury;
import static io.github.vertxbeanstalkd.engine.Commands.kick;
import static io.github.vertxbeanstalkd.engine.Commands.listTubeUsed;
import static io.github.vertxbeanstalkd.engine.Commands.put;
import static io.github.vertxbeanstalkd.engine.Commands.reserve;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.protocol.Command;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Long work (a huge kick, a flood of timers) is split across event-loop turns and still finishes. */
class YieldingTest {
  static final int JOBS = 50_000;
  final EngineFixture f = new EngineFixture();
  final Session client = f.open();
  final Session other = f.open();

  @Test
  void aHugeKickCompletesCorrectlyAcrossYields() {
    buryJobs(JOBS);
    assertEquals(List.of(), f.send(client, kick(JOBS + 10), listTubeUsed()));
    int turns = 0;
    while (f.engine.hasYieldedWork()) {
      assertEquals("USING default", f.one(other, listTubeUsed()), "other connections are served between turns");
      f.engine.resumeYielded();
      turns++;
      assertTrue(turns < 1_000, "the kick never finishes");
    }
    assertTrue(turns >= 2, "a 50k kick should yield at least twice, yielded " + turns);
    assertEquals(List.of("KICKED " + JOBS, "USING default"), f.take(client));
    var stats = f.stats();
    assertEquals(String.valueOf(JOBS), stats.get("current-jobs-ready"));
    assertEquals("0", stats.get("current-jobs-buried"));
    assertEquals("1", stats.get("cmd-kick"), "one kick command, however many turns");
    assertEquals("1", f.statsJob(JOBS).get("kicks"));
  }

  @Test
  void aHugeKickStopsAtItsBoundAcrossYields() {
    buryJobs(JOBS);
    f.send(client, kick(25_001));
    while (f.engine.hasYieldedWork()) {
      f.engine.resumeYielded();
    }
    assertEquals(List.of("KICKED 25001"), f.take(client));
    assertEquals(String.valueOf(JOBS - 25_001), f.stats().get("current-jobs-buried"));
    assertEquals("buried", f.state(25_002), "burial order: the oldest 25001 burials were kicked");
    assertEquals("ready", f.state(25_001));
  }

  @Test
  void aKickedJobReachesAWaitingReserverDuringAHugeKick() {
    buryJobs(JOBS);
    assertEquals(List.of(), f.send(other, reserve()));
    f.send(client, kick(JOBS));
    assertEquals(List.of("RESERVED 1 job"), f.take(other));
    while (f.engine.hasYieldedWork()) {
      f.engine.resumeYielded();
    }
    assertEquals(List.of("KICKED " + JOBS), f.take(client));
    assertEquals(String.valueOf(JOBS - 1), f.stats().get("current-jobs-ready"));
  }

  @Test
  void manyDelaysExpiringAtOnceAreHandledAcrossSeveralTicks() {
    List<Command> puts = new ArrayList<>();
    for (int i = 0; i < JOBS; i++) {
      puts.add(put(0, 1, 60, "job"));
    }
    f.engine.submit(client.key, puts, Scope.NONE);
    f.take(client);
    f.clock.advanceNanos(FakeClock.SECOND);
    int ticks = 0;
    int lastReady = 0;
    while (f.engine.nextDeadlineNanos() <= f.clock.nanos()) {
      f.engine.tick();
      ticks++;
      int ready = Integer.parseInt(f.stats().get("current-jobs-ready"));
      assertTrue(ready > lastReady, "every tick makes progress");
      lastReady = ready;
      assertTrue(ticks < 1_000, "the timers never finish");
    }
    assertTrue(ticks >= 2, "one tick handled all " + JOBS + " timers");
    var stats = f.stats();
    assertEquals(String.valueOf(JOBS), stats.get("current-jobs-ready"));
    assertEquals("0", stats.get("current-jobs-delayed"));
    assertFalse(f.engine.nextDeadlineNanos() <= f.clock.nanos());
    assertEquals("RESERVED 1 job", f.one(other, reserve()));
  }

  @Test
  void aTickWithMoreWorkDueAsksToBeCalledAgainAtOnce() {
    List<Command> puts = new ArrayList<>();
    for (int i = 0; i < JOBS; i++) {
      puts.add(put(0, 1, 60, "job"));
    }
    f.engine.submit(client.key, puts, Scope.NONE);
    f.clock.advanceNanos(2 * FakeClock.SECOND);
    assertTrue(f.engine.tick() <= f.clock.nanos());
  }

  /** Puts {@code n} jobs and buries them in id order, so burial order is id order. */
  private void buryJobs(int n) {
    List<Command> commands = new ArrayList<>(3 * n);
    for (int i = 0; i < n; i++) {
      commands.add(put("job"));
    }
    for (int id = 1; id <= n; id++) {
      commands.add(reserve());
      commands.add(bury(id, 0));
    }
    f.engine.submit(client.key, commands, Scope.NONE);
    f.take(client);
    assertEquals(String.valueOf(n), f.stats().get("current-jobs-buried"));
  }
}
