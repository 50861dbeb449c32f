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
    assertEquals(List.of(FOUND), f.take(a), "room for one: the first to have stopped goes first");
    assertEquals(List.of(), f.take(b));

    f.engine.received("test", 3_000);
    assertEquals(List.of(FOUND), f.take(a));
    assertEquals(List.of(FOUND, "INSERTED 2"), f.take(b));
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
