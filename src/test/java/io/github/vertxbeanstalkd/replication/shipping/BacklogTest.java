package io.github.vertxbeanstalkd.replication.shipping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.vertx.core.buffer.Buffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a primary can send a standby that resumes: every frame after its offset, or nothing at all. */
class BacklogTest {
  /** An entry of {@code bytes} bytes, each byte its own offset's low byte, ending at {@code endsAt}. */
  private static StandbyLink.Held entry(long sequence, long endsAt, int bytes) {
    byte[] frames = new byte[bytes];
    for (int i = 0; i < bytes; i++) {
      frames[i] = (byte) (endsAt - bytes + i);
    }
    return new StandbyLink.Held(sequence, sequence, endsAt, Buffer.buffer(frames));
  }

  private static List<Long> ends(List<StandbyLink.Held> entries) {
    return entries.stream().map(StandbyLink.Held::logged).toList();
  }

  @Test
  void aStandbyGetsEveryFrameAfterItsOffsetInOrder() {
    Backlog backlog = new Backlog(1 << 20, 100);
    backlog.add(entry(11, 110, 10));
    backlog.add(entry(14, 120, 10));
    backlog.add(entry(15, 130, 10));
    assertEquals(List.of(120L, 130L), ends(backlog.from(110)));
    assertEquals(List.of(110L, 120L, 130L), ends(backlog.from(100)));
    assertEquals(List.of(), backlog.from(130), "caught up: nothing to send");
  }

  @Test
  void anOffsetInsideAnEntryGetsTheRestOfIt() {
    // Another standby's batches were merged otherwise: its position falls inside this node's entry.
    Backlog backlog = new Backlog(1 << 20, 100);
    backlog.add(entry(11, 120, 20));
    List<StandbyLink.Held> rest = backlog.from(113);
    assertEquals(1, rest.size());
    assertEquals(7, rest.get(0).frames().length());
    assertEquals((byte) 113, rest.get(0).frames().getByte(0));
  }

  @Test
  void anOffsetBeforeTheBacklogOrBeyondItsEndCannotResume() {
    Backlog backlog = new Backlog(1 << 20, 100);
    backlog.add(entry(11, 110, 10));
    assertNull(backlog.from(99), "before the stream the backlog holds");
    assertNull(backlog.from(111), "beyond what was shipped: a diverged history");
  }

  @Test
  void whatFallsOutOfTheBoundCannotBeResumedFrom() {
    Backlog backlog = new Backlog(25, 0);
    backlog.add(entry(1, 10, 10));
    backlog.add(entry(2, 20, 10));
    backlog.add(entry(3, 30, 10));
    assertEquals(20, backlog.bytes());
    assertNull(backlog.from(5), "the first entry was dropped");
    assertEquals(List.of(20L, 30L), ends(backlog.from(10)));
  }
}
