package io.github.vertxbeanstalkd.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.bus.EngineReply;
import io.github.vertxbeanstalkd.bus.Scope;
import io.github.vertxbeanstalkd.bus.SessionKey;
import io.github.vertxbeanstalkd.protocol.Command;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Sessions that are not connections (what the event-bus and admin fronts open): no tube of their
 * own, tubes named per command by a scope and counted like a connection's use and watch but never
 * as cmd-use or cmd-watch, not counted as connections; closed by their front, which the engine
 * confirms with an end notice; a notice when their last job is taken back.
 */
class ScopedSessionsTest {
  private final FakeClock clock = new FakeClock();
  private final RecordingSink sink = new RecordingSink();
  private final QueueEngine engine = new QueueEngine(clock, sink, ServerInfo.forTests(), 65_535);
  private final Map<String, SessionKey> keys = new HashMap<>();

  private SessionKey key(String name) {
    return keys.computeIfAbsent(name, n -> {
      SessionKey k = new SessionKey("bus", keys.size() + 1);
      engine.open(k, false);
      return k;
    });
  }

  private void call(String session, Command command, Scope scope) {
    engine.submit(key(session), List.of(command), scope);
  }

  private void call(String session, Command command) {
    call(session, command, Scope.NONE);
  }

  private List<String> take(String session) {
    return sink.take(key(session)).stream().map(EngineFixture::text).toList();
  }

  private void put(String session, String tube, String body) {
    call(session, Commands.put(body), Scope.using(tube));
  }

  private void reserve(String session, long timeoutSeconds, String... tubes) {
    call(session, Commands.reserveWithTimeout(timeoutSeconds), Scope.watching(List.of(tubes)));
  }

  private Map<String, String> stats() {
    call("observer", Commands.stats());
    return EngineFixture.yaml(take("observer").get(0));
  }

  @Test
  void aPutGoesToTheNamedTubeWithoutCountingUse() {
    put("a", "emails", "hi");
    assertEquals(List.of("INSERTED 1"), take("a"));
    call("a", Commands.statsJob(1));
    assertTrue(take("a").get(0).contains("tube: emails"));
    assertEquals("0", stats().get("cmd-use"));
    assertEquals("1", stats().get("cmd-put"));
  }

  @Test
  void afterAScopedCommandTheSessionHoldsNoTube() {
    put("a", "t", "x");
    call("a", Commands.delete(1));
    call("observer", Commands.listTubes());
    assertEquals("OK ---\n- default\n", take("observer").get(0));
  }

  @Test
  void aWaitingReserveWatchesItsTubesAndCountsAsWaitingButNotAsAConnection() {
    reserve("w", 10, "a", "b");
    call("observer", Commands.statsTube("b"));
    Map<String, String> tube = EngineFixture.yaml(take("observer").get(0));
    assertEquals("1", tube.get("current-watching"));
    assertEquals("1", tube.get("current-waiting"));
    Map<String, String> server = stats();
    assertEquals("1", server.get("current-waiting"));
    assertEquals("0", server.get("current-connections"));
    assertEquals("0", server.get("cmd-watch"));
    put("p", "b", "wake");
    assertEquals(List.of("RESERVED 1 wake"), take("w"));
    // Once the reserve is answered the session lets go of the tubes it watched.
    call("observer", Commands.listTubes());
    assertEquals("OK ---\n- default\n- b\n", take("observer").get(0));
  }

  @Test
  void repliesSayWhetherTheSessionHoldsJobs() {
    put("p", "default", "job");
    reserve("w", 0, "default");
    EngineReply reserved = sink.last(key("w"));
    assertTrue(reserved.holdsJobs());
    assertTrue(reserved.isComplete());
    call("w", Commands.delete(1));
    assertFalse(sink.last(key("w")).holdsJobs());
  }

  @Test
  void aJobTakenBackByItsTtrBringsANotice() {
    put("p", "default", "job");
    reserve("w", 0, "default");
    take("w");
    clock.advanceMillis(61_000);
    engine.tick();
    EngineReply notice = sink.last(key("w"));
    assertEquals(List.of(), notice.replies());
    assertFalse(notice.holdsJobs());
    assertTrue(notice.isComplete());
    assertEquals("1", stats().get("job-timeouts"));
  }

  @Test
  void endInputThenCloseAnswersAWaitingReserveDropsWhatQueuedBehindItAndReleasesJobs() {
    put("p", "default", "held");
    reserve("w", 0, "default");
    take("w");
    reserve("w", 100, "default");
    call("w", Commands.delete(1));
    engine.endInput(key("w"));
    engine.close(key("w"));
    assertEquals(List.of("TIMED_OUT"), take("w"));
    assertEquals(List.of(key("w")), sink.ended());
    assertNull(engine.session(key("w")));
    call("observer", Commands.statsJob(1));
    assertTrue(take("observer").get(0).contains("state: ready"));
  }

  @Test
  void closeOfAnUnknownSessionIsConfirmedToo() {
    SessionKey nobody = new SessionKey("bus", 999);
    engine.close(nobody);
    assertEquals(List.of(nobody), sink.ended());
  }

  @Test
  void commandsOfAnUnknownSessionAnswerInternalError() {
    SessionKey nobody = new SessionKey("bus", 999);
    engine.submit(nobody, List.of(Commands.stats(), Commands.stats()), Scope.NONE);
    assertEquals(List.of("INTERNAL_ERROR", "INTERNAL_ERROR"),
        sink.take(nobody).stream().map(EngineFixture::text).toList());
  }

  @Test
  void buryWithoutAPriorityKeepsTheJobsOwn() {
    call("p", Commands.put(77, 0, 60, "x"), Scope.using("default"));
    reserve("w", 0, "default");
    call("w", Command.Bury.keepingPriority(1));
    assertEquals(List.of("RESERVED 1 x", "BURIED"), take("w"));
    call("observer", Commands.statsJob(1));
    assertTrue(take("observer").get(0).contains("pri: 77"));
  }

  @Test
  void anotherSessionCannotDeleteAReservedJob() {
    put("p", "default", "x");
    reserve("w", 0, "default");
    assertEquals(List.of("RESERVED 1 x"), take("w"));
    call("other", Commands.delete(1));
    assertEquals(List.of("NOT_FOUND"), take("other"));
    call("w", Commands.delete(1));
    assertEquals(List.of("DELETED"), take("w"));
  }

  @Test
  void aConnectionCountsAsOneAndUsesDefault() {
    SessionKey c = new SessionKey("tcp", 1);
    engine.open(c, true);
    assertEquals("1", stats().get("current-connections"));
    engine.submit(c, List.of(Commands.listTubeUsed()), Scope.NONE);
    assertEquals(List.of("USING default"), sink.take(c).stream().map(EngineFixture::text).toList());
    engine.close(c);
    assertNull(engine.session(c));
    assertEquals("0", stats().get("current-connections"));
  }

  @Test
  void aScopeNamingNewTubesPastTheHeapShareAnswersOutOfMemoryAndExistingTubesStillWork() {
    put("p", "kept", "a");
    key("r");
    engine.limitHeldState(1);

    put("p", "fresh", "b");
    reserve("r", 0, "kept", "other");
    put("p", "kept", "c");
    reserve("r", 0, "kept");

    assertEquals(List.of("INSERTED 1", "OUT_OF_MEMORY", "INSERTED 2"), take("p"));
    assertEquals(List.of("OUT_OF_MEMORY", "RESERVED 1 a"), take("r"));
  }

  @Test
  void aSessionOpenedPastMaxMemoryAnswersOutOfMemory() {
    engine.limitMemory(1);
    call("late", Commands.stats());
    assertEquals(List.of("OUT_OF_MEMORY"), take("late"));
  }
}
