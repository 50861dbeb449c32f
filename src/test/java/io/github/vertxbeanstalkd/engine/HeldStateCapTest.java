package io.github.vertxbeanstalkd.engine;

import static io.github.vertxbeanstalkd.engine.Commands.ignore;
import static io.github.vertxbeanstalkd.engine.Commands.put;
import static io.github.vertxbeanstalkd.engine.Commands.use;
import static io.github.vertxbeanstalkd.engine.Commands.watch;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The heap's share for tubes, watch lists and sessions: past it, a new tube or a new watch answers
 * OUT_OF_MEMORY, while what exists goes on working and puts are not refused by it.
 */
class HeldStateCapTest {
  /** A connection's session, the default tube, and its watch of default. */
  private static final long ONE_CONNECTION = MemoryCap.SESSION_BYTES + MemoryCap.TUBE_BYTES + MemoryCap.WATCH_BYTES;
  private static final long NEW_WATCHED_TUBE = MemoryCap.TUBE_BYTES + MemoryCap.WATCH_BYTES;

  private final EngineFixture f = new EngineFixture();
  private final Session a = f.open();

  @Test
  void newTubesPastTheShareAnswerOutOfMemoryAndWhatExistsStillWorks() {
    f.engine.limitHeldState(ONE_CONNECTION + 2 * NEW_WATCHED_TUBE);

    assertEquals(List.of("WATCHING 2", "WATCHING 3", "OUT_OF_MEMORY", "OUT_OF_MEMORY"),
        f.send(a, watch("t1"), watch("t2"), watch("t3"), use("t3")));
    assertEquals(List.of("WATCHING 3", "USING t1", "INSERTED 1"), f.send(a, watch("t1"), use("t1"), put("job")));
    assertEquals(List.of("default", "t1", "t2"), f.listTubes());
  }

  @Test
  void aTubeLetGoMakesRoomForAnother() {
    f.engine.limitHeldState(ONE_CONNECTION + NEW_WATCHED_TUBE);
    assertEquals(List.of("WATCHING 2", "OUT_OF_MEMORY"), f.send(a, watch("t1"), watch("t2")));

    assertEquals(List.of("WATCHING 1", "WATCHING 2"), f.send(a, ignore("t1"), watch("t2")));
    assertEquals(List.of("default", "t2"), f.listTubes());
  }

  @Test
  void withoutAShareOnlyMaxMemoryCounts() {
    f.engine.limitMemory(1L << 30);
    for (int i = 0; i < 1_000; i++) {
      assertEquals("WATCHING " + (i + 2), f.one(a, watch("t" + i)));
    }
  }
}
