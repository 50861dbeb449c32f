package io.github.vertxbeanstalkd.engine;

import static io.github.vertxbeanstalkd.engine.Commands.delete;
import static io.github.vertxbeanstalkd.engine.Commands.put;
import static io.github.vertxbeanstalkd.engine.Commands.release;
import static io.github.vertxbeanstalkd.engine.Commands.reserve;
import static io.github.vertxbeanstalkd.engine.Commands.use;
import static io.github.vertxbeanstalkd.engine.Commands.watch;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.bus.EngineSnapshot;
import org.junit.jupiter.api.Test;

/**
 * The snapshot's per-tube counters the admin page's rates come from: puts (total-jobs), reserves
 * and deletes of each tube's own jobs since the start.
 */
class SnapshotTubeCountersTest {
  final EngineFixture f = new EngineFixture();
  final Session producer = f.open();
  final Session worker = f.open();

  @Test
  void eachTubeCountsItsOwnPutsReservesAndDeletes() {
    f.send(producer, use("emails"), put("a"), put("b"), use("default"), put("c"));
    f.send(worker, watch("emails"));
    f.one(worker, reserve());
    f.one(worker, release(1, 0, 0));
    f.one(worker, reserve());
    f.one(worker, delete(1));

    EngineSnapshot.TubeCounts emails = f.engine.snapshot().tube("emails");
    assertEquals(2, emails.totalJobs(), "puts");
    assertEquals(2, emails.reserves(), "a job reserved, released and reserved again: two reserves");
    assertEquals(1, emails.deletes());
    EngineSnapshot.TubeCounts other = f.engine.snapshot().tube("default");
    assertEquals(1, other.totalJobs());
    assertEquals(0, other.reserves());
    assertEquals(0, other.deletes());
  }

  @Test
  void aReserveThatTimesOutIsNotCounted() {
    f.one(worker, Commands.reserveWithTimeout(0));
    assertEquals(0, f.engine.snapshot().tube("default").reserves());
  }
}
