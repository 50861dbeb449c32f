package io.github.vertxbeanstalkd.engine;

import static io.github.vertxbeanstalkd.engine.Commands.bury;
import static io.github.vertxbeanstalkd.engine.Commands.listTubeUsed;
import static io.github.vertxbeanstalkd.engine.Commands.put;
import static io.github.vertxbeanstalkd.engine.Commands.reserve;
import static io.github.vertxbeanstalkd.engine.Commands.use;
import static io.github.vertxbeanstalkd.engine.Commands.watch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.bus.Scope;
import io.github.vertxbeanstalkd.protocol.Command;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A flush deletes a tube's jobs in one state, or in every state but reserved, a bounded slice per
 * turn, and answers how many it deleted.
 */
class FlushTest {
  final EngineFixture f = new EngineFixture();
  final Session producer = f.open();
  final Session worker = f.open();
  final Session admin = f.open();

  /** Jobs 1-2 ready, 3-4 delayed, 5 reserved by the worker, 6-7 buried; all in "emails". */
  void fillEveryState() {
    f.send(producer, use("emails"), put("r1"), put("r2"), put(0, 60, 60, "d1"), put(0, 60, 60, "d2"));
    f.send(worker, watch("emails"), Commands.ignore("default"));
    f.send(producer, put(0, 0, 60, "x"), put(0, 0, 60, "b1"), put(0, 0, 60, "b2"));
    // Reserve takes the oldest ready first at equal priority: 1 and 2 are bounced back below.
    List<String> got = f.send(worker, reserve(), reserve(), reserve(), reserve(), reserve());
    assertEquals(5, got.size(), got::toString);
    f.send(worker, Commands.release(1, 0, 0), Commands.release(2, 0, 0), bury(6, 0), bury(7, 0));
    assertEquals("reserved", f.state(5));
  }

  List<String> flush(Command.Flush flush, String tube) {
    f.engine.submit(admin.key, List.of(flush), Scope.using(tube));
    while (f.engine.hasYieldedWork()) {
      f.engine.resumeYielded();
    }
    return f.take(admin);
  }

  @Test
  void flushingReadyDeletesOnlyTheReadyJobs() {
    fillEveryState();
    assertEquals(List.of("FLUSHED 2"), flush(Command.Flush.READY, "emails"));
    assertEquals("NOT_FOUND", f.one(producer, Commands.statsJob(1)));
    assertEquals("NOT_FOUND", f.one(producer, Commands.statsJob(2)));
    assertEquals("delayed", f.state(3));
    assertEquals("reserved", f.state(5));
    assertEquals("buried", f.state(6));
  }

  @Test
  void flushingDelayedDeletesOnlyTheDelayedJobs() {
    fillEveryState();
    assertEquals(List.of("FLUSHED 2"), flush(Command.Flush.DELAYED, "emails"));
    assertEquals("0", f.statsTube("emails").get("current-jobs-delayed"));
    assertEquals("2", f.statsTube("emails").get("current-jobs-ready"));
    assertEquals("2", f.statsTube("emails").get("current-jobs-buried"));
  }

  @Test
  void flushingBuriedDeletesOnlyTheBuriedJobs() {
    fillEveryState();
    assertEquals(List.of("FLUSHED 2"), flush(Command.Flush.BURIED, "emails"));
    assertEquals("0", f.statsTube("emails").get("current-jobs-buried"));
    assertEquals("2", f.statsTube("emails").get("current-jobs-delayed"));
  }

  @Test
  void flushingAllNeverTakesAReservedJob() {
    fillEveryState();
    assertEquals(List.of("FLUSHED 6"), flush(Command.Flush.ALL, "emails"));
    var tube = f.statsTube("emails");
    assertEquals("1", tube.get("current-jobs-reserved"));
    assertEquals("0", tube.get("current-jobs-ready"));
    assertEquals("reserved", f.state(5));
    assertEquals("DELETED", f.one(worker, Commands.delete(5)), "its worker still finishes it");
  }

  @Test
  void flushingATubeLeavesOtherTubesAlone() {
    f.send(producer, put("mine"), use("emails"), put("theirs"));
    assertEquals(List.of("FLUSHED 1"), flush(Command.Flush.ALL, "emails"));
    assertEquals("ready", f.state(1));
    assertEquals(List.of("FLUSHED 0"), flush(Command.Flush.ALL, "nothing-here"));
    assertEquals(List.of("OK ---\n- default\n- emails\n"), f.send(producer, Commands.listTubes()),
        "a tube the flush named only for itself goes with it");
  }

  @Test
  void aLargeFlushYieldsBetweenSlicesAndOthersAreServedMeanwhile() {
    int jobs = 5 * TubeFlush.JOBS_PER_SLICE + 7;
    List<Command> puts = new ArrayList<>();
    for (int i = 0; i < jobs; i++) {
      puts.add(put("job"));
    }
    f.engine.submit(producer.key, puts, Scope.using("big"));
    f.take(producer);
    f.engine.submit(admin.key, List.of(Command.Flush.READY, Command.ListTubeUsed.INSTANCE), Scope.using("big"));
    int turns = 0;
    while (f.engine.hasYieldedWork()) {
      assertEquals(List.of(), f.take(admin), "no reply before the flush is over");
      assertEquals("USING default", f.one(worker, listTubeUsed()), "other sessions are served between slices");
      f.engine.resumeYielded();
      turns++;
      assertTrue(turns < 100, "the flush never finishes");
    }
    assertEquals(5, turns, "one turn per slice of " + TubeFlush.JOBS_PER_SLICE);
    assertEquals(List.of("FLUSHED " + jobs, "USING big"), f.take(admin));
  }

  @Test
  void jobsPutWhileAFlushRunsDoNotKeepItGoing() {
    int jobs = 3 * TubeFlush.JOBS_PER_SLICE;
    List<Command> puts = new ArrayList<>();
    for (int i = 0; i < jobs; i++) {
      puts.add(put("job"));
    }
    f.engine.submit(producer.key, puts, Scope.using("busy"));
    f.take(producer);
    f.engine.submit(admin.key, List.of(Command.Flush.READY), Scope.using("busy"));
    while (f.engine.hasYieldedWork()) {
      f.engine.submit(producer.key, List.of(put("late"), put("late")), Scope.using("busy"));
      f.engine.resumeYielded();
    }
    assertEquals(List.of("FLUSHED " + jobs), f.take(admin), "at most what the tube held when it started");
    assertEquals("ready", f.state(jobs + 1), "the oldest ready go first: the late ones stay");
  }

  @Test
  void aClosedSessionsFlushStopsWhereItWas() {
    int jobs = 3 * TubeFlush.JOBS_PER_SLICE;
    List<Command> puts = new ArrayList<>();
    for (int i = 0; i < jobs; i++) {
      puts.add(put("job"));
    }
    f.engine.submit(producer.key, puts, Scope.using("big"));
    f.engine.submit(admin.key, List.of(Command.Flush.READY), Scope.using("big"));
    f.engine.close(admin.key);
    while (f.engine.hasYieldedWork()) {
      f.engine.resumeYielded();
    }
    assertEquals(String.valueOf(jobs - TubeFlush.JOBS_PER_SLICE), f.statsTube("big").get("current-jobs-ready"));
  }
}
