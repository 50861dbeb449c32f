package io.github.vertxbeanstalkd.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.store.DirectMemory;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A job store at its memory limit refuses puts with OUT_OF_MEMORY and harms nothing else. */
class StoreFullTest {
  private static final long LIMIT_BYTES = (5L << 19) + (1L << 20) + 4096 + 4096;
  /** A job of a 1000-byte body: its record (104 bytes) and its body's size class (1024 bytes). */
  private static final long JOB_BYTES = 104 + 1024;
  private final EngineFixture f = new EngineFixture(new DirectMemory(LIMIT_BYTES));

  @Test
  void putsPastTheLimitAnswerOutOfMemoryAndResumeOnceRoomIsFreed() {
    Session producer = f.open();
    Session worker = f.open();
    String body = "b".repeat(1000);
    int stored = 0;
    String reply;
    while ((reply = f.one(producer, Commands.put(body))).startsWith("INSERTED")) {
      stored++;
    }
    assertEquals("OUT_OF_MEMORY", reply);
    // Pages grow in steps, and a step holds the old block and the new one at once: the
    // jobs fill at least half of the limit, never more than all of it.
    assertTrue(stored >= LIMIT_BYTES / 2 / JOB_BYTES && stored <= LIMIT_BYTES / JOB_BYTES, "stored " + stored);
    // Every stored job is intact and can be reserved, released, buried, kicked and deleted.
    assertEquals("RESERVED 1 " + body, f.one(worker, Commands.reserve()));
    assertEquals("RELEASED", f.one(worker, Commands.release(1, 0, 0)));
    assertEquals("RESERVED 1 " + body, f.one(worker, Commands.reserve()));
    assertEquals("BURIED", f.one(worker, Commands.bury(1, 5)));
    assertEquals("KICKED 1", f.one(worker, Commands.kick(10)));
    assertEquals("OUT_OF_MEMORY", f.one(producer, Commands.put(body)));
    assertEquals(List.of("DELETED"), f.send(worker, Commands.delete(3)));
    // The freed slot takes the next job; the failed puts used up their ids (BEHAVIOURS.md 4).
    String next = f.one(producer, Commands.put(body));
    assertTrue(next.startsWith("INSERTED "), next);
    assertEquals(String.valueOf(stored), f.stats().get("current-jobs-ready"));
  }
}
