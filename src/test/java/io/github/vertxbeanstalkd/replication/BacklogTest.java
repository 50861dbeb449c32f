package io.github.vertxbeanstalkd.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.vertx.core.buffer.Buffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a primary can send a standby that resumes: everything after its position, or nothing at all. */
class BacklogTest {
  private static StandbyLink.Held batch(long first, long last, int bytes) {
    return new StandbyLink.Held(first, last, 0, Buffer.buffer(new byte[bytes]));
  }

  @Test
  void aStandbyGetsEveryBatchAfterItsPositionInOrder() {
    Backlog backlog = new Backlog(1 << 20, 10);
    backlog.add(batch(11, 12, 10));
    backlog.add(batch(14, 14, 10));
    backlog.add(batch(15, 20, 10));
    assertEquals(List.of(14L, 15L), backlog.after(12, 20).stream().map(StandbyLink.Held::first).toList());
    assertEquals(List.of(11L, 14L, 15L), backlog.after(10, 20).stream().map(StandbyLink.Held::first).toList());
    assertEquals(List.of(), backlog.after(20, 20), "caught up: nothing to send");
  }

  @Test
  void aPositionBeforeTheTermOrInsideABatchOrBeyondTheStreamCannotResume() {
    Backlog backlog = new Backlog(1 << 20, 10);
    backlog.add(batch(11, 15, 10));
    assertNull(backlog.after(9, 15), "before this term's stream started");
    assertNull(backlog.after(13, 15), "inside a batch");
    assertNull(backlog.after(16, 15), "beyond what was shipped: another stream's position");
  }

  @Test
  void whatFallsOutOfTheBoundCannotBeResumedFrom() {
    Backlog backlog = new Backlog(25, 0);
    backlog.add(batch(1, 1, 10));
    backlog.add(batch(2, 2, 10));
    backlog.add(batch(3, 3, 10));
    assertEquals(20, backlog.bytes());
    assertNull(backlog.after(0, 3), "batch 1 was dropped");
    assertEquals(List.of(2L, 3L), backlog.after(1, 3).stream().map(StandbyLink.Held::first).toList());
  }
}
