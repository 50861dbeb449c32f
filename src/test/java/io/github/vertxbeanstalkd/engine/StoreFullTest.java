package io.github.vertxbeanstalkd.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.store.DirectMemory;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A job store at its memory limit refuses puts with OUT_OF_MEMORY and harms nothing else. */
class StoreFullTest {
  /** Room for the index, one 1.5 MiB page of records and about 1 MiB of 1000-byte bodies. */
  private final EngineFixture f = new EngineFixture(new DirectMemory((5L << 19) + (1L << 20) + 4096 + 4096));

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
    assertTrue(stored > 900 && stored < 1100, "stored " + stored);
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
