package io.github.vertxbeanstalkd.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.Reply;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * EVENTBUS.md's sessions in the engine: created by their first request, gone once they hold and
 * await nothing, ended by quit or by their node leaving; tubes named per request, counted like a
 * connection's use and watch, but never as cmd-use or cmd-watch.
 */
class BusSessionsTest {
  private final FakeClock clock = new FakeClock();
  private final BusSink sink = new BusSink();
  private final QueueEngine engine = new QueueEngine(clock, sink, ServerInfo.forTests(), 65_535);

  /** Records replies and end notices per session key. */
  private static final class BusSink implements ReplySink {
    final Map<Object, List<String>> replies = new HashMap<>();
    final List<Object> ended = new ArrayList<>();

    @Override
    public void deliver(Session s, List<Reply> delivered, boolean isComplete) {
      delivered.forEach(r -> replies.computeIfAbsent(s.key(), k -> new ArrayList<>()).add(EngineFixture.text(r)));
    }

    @Override
    public void ended(Session s) {
      ended.add(s.key());
    }

    List<String> take(Object key) {
      List<String> r = replies.remove(key);
      return r == null ? List.of() : r;
    }
  }

  private void call(String session, Command command) {
    engine.call(session, null, new BusStep(null, null, command, false));
  }

  private void put(String session, String tube, String body) {
    engine.call(session, null, new BusStep(tube, null, Commands.put(body), false));
  }

  private void reserve(String session, String node, long timeoutSeconds, String... tubes) {
    engine.call(session, node, new BusStep(null, List.of(tubes), Commands.reserveWithTimeout(timeoutSeconds), false));
  }

  private Map<String, String> stats() {
    call("observer", Commands.stats());
    return EngineFixture.yaml(sink.take("observer").get(0));
  }

  @Test
  void aPutGoesToTheNamedTubeWithoutCountingUse() {
    put("a", "emails", "hi");
    assertEquals(List.of("INSERTED 1"), sink.take("a"));
    call("a", Commands.statsJob(1));
    assertTrue(sink.take("a").get(0).contains("tube: emails"));
    assertEquals("0", stats().get("cmd-use"));
    assertEquals("1", stats().get("cmd-put"));
  }

  @Test
  void aSessionThatHoldsNothingIsForgotten() {
    for (int i = 0; i < 10_000; i++) {
      put("one-off-" + i, "t", "x");
      call("one-off-" + i, Commands.delete(i + 1));
    }
    assertEquals(0, engine.sessions.all().size());
    assertEquals(List.of("default"), names(engine.tubes.inOrder()));
  }

  @Test
  void aSessionLivesWhileItHoldsAJobAndGoesWhenItTimesOut() {
    put("p", "default", "job");
    reserve("w", null, 0, "default");
    assertEquals(List.of("RESERVED 1 job"), sink.take("w"));
    assertEquals(1, countBusSessions());
    clock.advanceMillis(61_000);
    engine.tick();
    assertEquals(0, countBusSessions());
    assertEquals("1", stats().get("job-timeouts"));
  }

  @Test
  void aWaitingReserveWatchesItsTubesAndCountsAsWaitingButNotAsAConnection() {
    reserve("w", null, 10, "a", "b");
    call("observer", Commands.statsTube("b"));
    Map<String, String> tube = EngineFixture.yaml(sink.take("observer").get(0));
    assertEquals("1", tube.get("current-watching"));
    assertEquals("1", tube.get("current-waiting"));
    Map<String, String> server = stats();
    assertEquals("1", server.get("current-waiting"));
    assertEquals("0", server.get("current-connections"));
    assertEquals("0", server.get("cmd-watch"));
    put("p", "b", "wake");
    assertEquals(List.of("RESERVED 1 wake"), sink.take("w"));
    // Once the reserve is answered the session lets go of the tubes it watched.
    call("observer", Commands.listTubes());
    assertEquals("OK ---\n- default\n- b\n", sink.take("observer").get(0));
  }

  @Test
  void quitAnswersAWaitingReserveDropsWhatQueuedBehindItAndReleasesJobs() {
    put("p", "default", "held");
    reserve("w", null, 0, "default");
    sink.take("w");
    reserve("w", null, 100, "default");
    call("w", Commands.delete(1));
    engine.endSession("w");
    assertEquals(List.of("TIMED_OUT"), sink.take("w"));
    assertEquals(List.of("w"), sink.ended);
    assertEquals(0, countBusSessions());
    call("observer", Commands.statsJob(1));
    assertTrue(sink.take("observer").get(0).contains("state: ready"));
  }

  @Test
  void quitOfAnUnknownSessionIsConfirmedToo() {
    engine.endSession("nobody");
    assertEquals(List.of("nobody"), sink.ended);
  }

  @Test
  void theSessionsOfANodeThatLeftEndAndTheirJobsReturnAtOnce() {
    put("p", "default", "a");
    put("p", "default", "b");
    reserve("on-n1", "n1", 0, "default");
    reserve("on-n2", "n2", 0, "default");
    engine.nodeLeft("n1");
    assertEquals(List.of("on-n1"), sink.ended);
    Map<String, String> s = stats();
    assertEquals("1", s.get("current-jobs-ready"));
    assertEquals("1", s.get("current-jobs-reserved"));
    assertEquals("0", s.get("job-timeouts"));
  }

  @Test
  void buryWithoutAPriorityKeepsTheJobsOwn() {
    engine.call("p", null, new BusStep("default", null, Commands.put(77, 0, 60, "x"), false));
    reserve("w", null, 0, "default");
    engine.call("w", null, new BusStep(null, null, new Command.Bury(1, 0), true));
    assertEquals(List.of("RESERVED 1 x", "BURIED"), sink.take("w"));
    call("observer", Commands.statsJob(1));
    assertTrue(sink.take("observer").get(0).contains("pri: 77"));
  }

  @Test
  void anotherSessionCannotDeleteAReservedJob() {
    put("p", "default", "x");
    reserve("w", null, 0, "default");
    assertEquals(List.of("RESERVED 1 x"), sink.take("w"));
    call("other", Commands.delete(1));
    assertEquals(List.of("NOT_FOUND"), sink.take("other"));
    call("w", Commands.delete(1));
    assertEquals(List.of("DELETED"), sink.take("w"));
  }

  private long countBusSessions() {
    return engine.sessions.all().stream().filter(s -> s.isBusSession).count();
  }

  private static List<String> names(List<Tube> tubes) {
    return tubes.stream().map(t -> t.name).toList();
  }

  @Test
  void aTcpConnectionStillCountsAsOne() {
    Session c = engine.open("tcp");
    assertEquals("1", stats().get("current-connections"));
    engine.close(c);
    assertNull(engine.session("tcp"));
  }
}
