package io.github.vertxbeanstalkd.engine;

import static io.github.vertxbeanstalkd.engine.Commands.ignore;
import static io.github.vertxbeanstalkd.engine.Commands.listTubes;
import static io.github.vertxbeanstalkd.engine.Commands.peek;
import static io.github.vertxbeanstalkd.engine.Commands.put;
import static io.github.vertxbeanstalkd.engine.Commands.reserve;
import static io.github.vertxbeanstalkd.engine.Commands.stats;
import static io.github.vertxbeanstalkd.engine.Commands.use;
import static io.github.vertxbeanstalkd.engine.Commands.watch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bodies and documents on their way to a front: past the budget, its sessions wait before a
 * command that copies a body or makes a document, until the front says it received them. Other commands, and a reserve already
 * waiting for a job, are not held up.
 */
class FrontFlowTest {
  private static final String BODY = "x".repeat(1_000);
  private static final String FOUND = "FOUND 1 " + BODY;

  private final EngineFixture f = new EngineFixture();
  private final Session a = f.open();
  private final Session b = f.open();

  @Test
  void pastTheBudgetBodyCommandsWaitUntilTheFrontHasReceivedTheBodies() {
    f.engine.limitCopiesInTransit(2_500);
    assertEquals("INSERTED 1", f.one(a, put(BODY)));

    assertEquals(List.of(FOUND, FOUND, FOUND), f.send(a, peek(1), peek(1), peek(1), peek(1), peek(1)),
        "3,000 bytes sent: the fourth peek waits");
    assertEquals(List.of(), f.send(b, peek(1), put("b")), "the budget is the front's; what follows waits in order");

    f.engine.received("test", 1_000);
    assertEquals(List.of(FOUND, "INSERTED 2"), f.take(b), "room for one: the session not yet sent a copy goes first");
    assertEquals(List.of(), f.take(a));

    f.engine.received("test", 3_000);
    assertEquals(List.of(FOUND, FOUND), f.take(a));
  }

  /**
   * The front says what it received only when asked: from half the budget on its way, so that a
   * turn's replies cost no message back; a spent flow has always asked.
   */
  @Test
  void theFrontIsAskedForAReceiptFromHalfTheBudget() {
    f.engine.limitCopiesInTransit(4_000);
    assertEquals("INSERTED 1", f.one(a, put(BODY)));
    assertEquals(List.of(FOUND), f.send(a, peek(1)));
    assertEquals(false, f.engine.isReceiptWanted("test"), "1,000 of 4,000 bytes on their way");
    assertEquals(List.of(FOUND), f.send(a, peek(1)));
    assertEquals(true, f.engine.isReceiptWanted("test"), "2,000 of 4,000");
    assertEquals(List.of(FOUND, FOUND), f.send(a, peek(1), peek(1), peek(1)), "4,000: the fifth waits");
    assertEquals(true, f.engine.isReceiptWanted("test"));
    f.engine.received("test", 4_000);
    assertEquals(false, f.engine.isReceiptWanted("test"), "the fifth peek ran: 1,000 on its way");
    assertEquals(List.of(FOUND), f.take(a));
  }

  /**
   * A stats document is a few bytes in and kilobytes of objects out: 2,200 clients pipelining
   * list-tubes without reading had 70,000 lists made in one turn and ended the server.
   */
  @Test
  void documentsCountAndWaitAsBodiesDo() {
    f.engine.limitCopiesInTransit(2_000);
    List<String> first = f.send(a, stats(), stats(), listTubes(), put("job"));
    assertEquals(1, first.size(), "a stats document is counted at over 2 KiB: the second waits, and what follows: " + first);
    assertTrue(first.get(0).startsWith("OK ---\ncurrent-jobs-urgent: "), first.get(0));

    f.engine.received("test", 100);
    assertEquals(List.of(), f.take(a), "still over the budget");
    f.engine.received("test", 10_000);
    List<String> rest = f.take(a);
    assertEquals(3, rest.size(), rest.toString());
    assertEquals("OK ---\n- default\n", rest.get(1));
    assertEquals("INSERTED 1", rest.get(2));
  }

  /**
   * Sessions take turns at the budget: one sent a quantum goes behind those waiting. Before, a
   * stats from a well-behaved client waited behind every flooding client's whole batch (11 s
   * behind 2,200 clients pipelining peek of a 64 KiB job).
   */
  @Test
  void aSessionSentItsQuantumGoesBehindThoseWaiting() {
    String big = "y".repeat(65_535);
    f.engine.limitCopiesInTransit(1);
    assertEquals("INSERTED 1", f.one(a, put(big)));
    List<Session> flooders = new java.util.ArrayList<>();
    for (int i = 0; i < 20; i++) {
      Session s = f.open();
      flooders.add(s);
      f.send(s, peek(1), peek(1), peek(1), peek(1));
    }
    assertEquals(List.of(), f.send(b, stats()), "the budget is spent: the stats waits");

    int received = 0;
    List<String> stats = List.of();
    while (stats.isEmpty() && received < 100) {
      f.engine.received("test", big.length());
      received++;
      stats = f.take(b);
    }
    assertEquals(1, stats.size());
    assertTrue(received <= 20, "the stats was answered after " + received
        + " turns of the budget, one peek each: not behind the 80 peeks of the clients before it");
    int peeksAnswered = 0;
    for (Session s : flooders) {
      peeksAnswered += f.take(s).size();
    }
    assertTrue(peeksAnswered <= 1 + 20, "each client before it was sent one peek: " + peeksAnswered);
  }

  /**
   * A receipt wakes the next waiting session only, and the one after it once that one has run:
   * waking all 2,200 of a flood's sessions at every receipt cost a pass over them for each body sent.
   */
  @Test
  void waitingSessionsAreWokenOneAtATime() {
    FrontFlow flow = new FrontFlow(100);
    List<Session> sessions = new java.util.ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      Session s = f.open();
      sessions.add(s);
      flow.throttle(s, 0);
    }
    List<Session> woken = new java.util.ArrayList<>();
    flow.received(0, woken::add);
    assertEquals(List.of(sessions.get(0)), woken, "one, the first to have stopped");
    flow.ran(sessions.get(5), woken::add);
    assertEquals(1, woken.size(), "the next only once the one woken has run");
    flow.throttle(sessions.get(0), 0);
    flow.ran(sessions.get(0), woken::add);
    assertEquals(List.of(sessions.get(0), sessions.get(0)), woken, "beaten to the room, it is first again");
    flow.throttle(sessions.get(0), 10);
    flow.ran(sessions.get(0), woken::add);
    assertEquals(sessions.get(1), woken.get(2), "sent a copy, it goes behind those that were not");
  }

  @Test
  void commandsWithoutABodyAndReservesAlreadyWaitingAreNotHeldUp() {
    f.engine.limitCopiesInTransit(1_000);
    assertEquals(List.of("WATCHING 2", "WATCHING 1"), f.send(b, watch("jobs"), ignore("default")));
    assertEquals(List.of(), f.send(b, reserve()), "waits for a job");
    assertEquals(List.of("INSERTED 1", FOUND), f.send(a, put(BODY), peek(1)));

    assertEquals(List.of("USING jobs", "INSERTED 2"), f.send(a, use("jobs"), put("job")),
        "the budget is spent, a put still runs");
    assertEquals(List.of("RESERVED 2 job"), f.take(b), "the waiting reserve is handed its job at once");
    assertEquals(List.of(), f.send(a, peek(1)));
  }

  @Test
  void withoutABudgetNothingWaits() {
    assertEquals("INSERTED 1", f.one(a, put(BODY)));
    for (int i = 0; i < 1_000; i++) {
      assertEquals(FOUND, f.one(a, peek(1)));
    }
  }
}
