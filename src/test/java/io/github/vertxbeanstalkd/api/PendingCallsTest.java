package io.github.vertxbeanstalkd.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.vertxbeanstalkd.bus.BusSessionRef;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which request each engine reply answers, and what a session's end takes with it. */
class PendingCallsTest {
  private final PendingCalls pending = new PendingCalls();
  private final BusSessionRef a = new BusSessionRef("front", "a");
  private final BusSessionRef b = new BusSessionRef("front", "b");

  private static PendingCalls.Entry call(String action) {
    return new PendingCalls.Entry(null, action, false);
  }

  private static PendingCalls.Entry quit() {
    return new PendingCalls.Entry(null, "quit", true);
  }

  @Test
  void repliesAnswerEachSessionsOldestRequestAndIdleSessionsAreForgotten() {
    pending.add(a, null, call("put"));
    pending.add(b, null, call("stats"));
    pending.add(a, null, call("delete"));
    assertEquals("put", pending.poll(a).action());
    assertEquals("stats", pending.poll(b).action());
    assertEquals(1, pending.sessionCount());
    assertEquals("delete", pending.poll(a).action());
    assertEquals(0, pending.sessionCount());
    assertNull(pending.poll(a));
  }

  @Test
  void anEndTakesTheRequestsUpToTheQuitAndLeavesThoseSentAfterIt() {
    pending.add(a, null, call("reserve"));
    pending.add(a, null, call("delete"));
    PendingCalls.Entry quit = quit();
    pending.add(a, null, quit);
    pending.add(a, null, call("put"));
    assertEquals("reserve", pending.poll(a).action());
    List<PendingCalls.Entry> ended = pending.endUpToMarker(a);
    assertEquals(List.of("delete", "quit"), ended.stream().map(PendingCalls.Entry::action).toList());
    assertEquals("put", pending.poll(a).action());
  }

  @Test
  void anEndWithoutAMarkerTakesNothing() {
    pending.add(a, null, call("reserve"));
    assertEquals(List.of(), pending.endUpToMarker(a));
    assertEquals(1, pending.sessionCount());
  }

  @Test
  void aNodesDepartureMarksOnlyItsSessionsAndAnUnusedMarkerIsSkipped() {
    pending.add(a, "n1", call("reserve"));
    pending.add(b, "n2", call("reserve"));
    pending.markNodeLeft("n1");
    assertEquals(List.of("reserve", "node-left"),
        pending.endUpToMarker(a).stream().map(PendingCalls.Entry::action).toList());
    assertEquals(List.of(), pending.endUpToMarker(b));
    pending.markNodeLeft("n2");
    // The engine had already forgotten b: no end comes, and the marker must not answer b's next reply.
    pending.add(b, "n2", call("put"));
    assertEquals("reserve", pending.poll(b).action());
    assertEquals("put", pending.poll(b).action());
    assertEquals(0, pending.sessionCount());
  }
}
