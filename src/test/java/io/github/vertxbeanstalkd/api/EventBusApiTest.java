package io.github.vertxbeanstalkd.api;

import io.github.vertxbeanstalkd.client.*;
import io.github.vertxbeanstalkd.contract.Failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Every action and every failure word of shared/spec/EVENTBUS.md, over the real event bus, in one JVM. */
@ExtendWith(VertxExtension.class)
class EventBusApiTest {
  private Vertx vertx;
  private BeanstalkServer server;
  private Bus bus;

  @BeforeEach
  void deploy(Vertx vertx) {
    this.vertx = vertx;
    server = Bus.await(BeanstalkServer.deploy(vertx, ServerConfig.forTests()));
    bus = new Bus(vertx, "beanstalkd");
  }

  private static JsonObject json(Object... keysAndValues) {
    JsonObject o = new JsonObject();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      o.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return o;
  }

  private long put(String tube, String body, Object... more) {
    JsonObject req = json(more).put("tube", tube).put("body", body);
    return bus.ok("put", req).getLong("id");
  }

  // ---------------------------------------------------------------- the happy path of each action

  @Test
  void putReserveAndDeleteInASession() {
    assertEquals(json("id", 1L), bus.ok("put", json("tube", "emails", "body", "hi")));
    JsonObject job = bus.ok("reserve", json("session", "s", "tubes", new JsonArray().add("emails"), "timeout", 0));
    assertEquals(json("id", 1L, "tube", "emails", "body", "hi"), job);
    assertEquals(new JsonObject(), bus.ok("delete", json("id", 1, "session", "s")));
    bus.fails("peek", json("id", 1), Failure.NOT_FOUND);
  }

  @Test
  void drainAndUndrainAreActionsToo() {
    assertEquals(json("draining", true), bus.ok("drain", new JsonObject()));
    bus.fails("put", json("body", "x"), Failure.DRAINING);
    assertEquals(true, bus.ok("stats", new JsonObject()).getBoolean("draining"));
    assertEquals(json("draining", false), bus.ok("undrain", new JsonObject()));
    assertEquals(json("id", 2L), bus.ok("put", json("body", "x")));
  }

  @Test
  void aPutTakesTheContractsDefaults() {
    put("default", "x");
    JsonObject stats = bus.ok("stats-job", json("id", 1));
    assertEquals("default", stats.getString("tube"));
    assertEquals(1L << 31, stats.getLong("pri"));
    assertEquals(0L, stats.getLong("delay"));
    assertEquals(60L, stats.getLong("ttr"));
    bus.ok("put", json("body", "y", "ttr", 0));
    assertEquals(1L, bus.ok("stats-job", json("id", 2)).getLong("ttr"), "protocol.txt: a ttr of 0 becomes 1");
  }

  @Test
  void utf8BodiesComeBackAsTextAndOtherBytesAsBase64() {
    put("t", "héllo ✓");
    byte[] binary = {(byte) 0xff, 0, (byte) 0xc3, 'a'};
    String encoded = Base64.getEncoder().encodeToString(binary);
    bus.ok("put", json("tube", "t", "bodyBase64", encoded));
    assertEquals("héllo ✓", bus.ok("peek", json("id", 1)).getString("body"));
    JsonObject second = bus.ok("peek", json("id", 2));
    assertEquals(encoded, second.getString("bodyBase64"));
    assertFalse(second.containsKey("body"));
  }

  @Test
  void releaseBuryTouchKickAndKickJob() {
    put("t", "a", "pri", 5);
    put("t", "b", "pri", 6);
    JsonObject tubes = json("session", "w", "tubes", new JsonArray().add("t"));
    assertEquals(1L, bus.ok("reserve", tubes).getLong("id"));
    assertEquals(new JsonObject(), bus.ok("touch", json("id", 1, "session", "w")));
    assertEquals(new JsonObject(), bus.ok("release", json("id", 1, "session", "w", "pri", 9, "delay", 100)));
    assertEquals(1L, bus.ok("peek-delayed", json("tube", "t")).getLong("id"));
    assertEquals(9L, bus.ok("stats-job", json("id", 1)).getLong("pri"));
    assertEquals(2L, bus.ok("reserve", tubes).getLong("id"));
    assertEquals(new JsonObject(), bus.ok("bury", json("id", 2, "session", "w")));
    JsonObject buried = bus.ok("stats-job", json("id", 2));
    assertEquals("buried", buried.getString("state"));
    assertEquals(6L, buried.getLong("pri"), "bury without pri keeps the job's own");
    assertEquals(2L, bus.ok("peek-buried", json("tube", "t")).getLong("id"));
    assertEquals(json("kicked", 1L), bus.ok("kick", json("tube", "t", "bound", 10)));
    assertEquals(2L, bus.ok("peek-ready", json("tube", "t")).getLong("id"));
    assertEquals(new JsonObject(), bus.ok("kick-job", json("id", 1)));
    assertEquals("ready", bus.ok("stats-job", json("id", 1)).getString("state"));
    assertEquals(2L, bus.ok("reserve", tubes).getLong("id"));
    assertEquals(new JsonObject(), bus.ok("bury", json("id", 2, "session", "w", "pri", 1)));
    assertEquals(1L, bus.ok("stats-job", json("id", 2)).getLong("pri"));
  }

  @Test
  void reserveJobTakesABuriedJob() {
    put("t", "x");
    bus.ok("reserve", json("session", "w", "tubes", new JsonArray().add("t")));
    bus.ok("bury", json("id", 1, "session", "w"));
    assertEquals(json("id", 1L, "tube", "t", "body", "x"), bus.ok("reserve-job", json("id", 1, "session", "w")));
    assertEquals("reserved", bus.ok("stats-job", json("id", 1)).getString("state"));
  }

  @Test
  void statsHaveTheProtocolsKeysInOrderWithNumbersAsNumbers() throws Exception {
    put("t", "x");
    JsonObject stats = bus.ok("stats", null);
    try (TestClient tcp = TestClient.connect(server.port())) {
      List<String> tcpKeys = new ArrayList<>(tcp.stats("stats").keySet());
      assertEquals(tcpKeys, new ArrayList<>(stats.fieldNames()));
    }
    assertEquals(1L, stats.getLong("current-jobs-ready"));
    assertEquals(1L, stats.getLong("cmd-put"));
    assertEquals("1.12", stats.getString("version"));
    assertInstanceOf(String.class, stats.getValue("id"));
    assertEquals(false, stats.getValue("draining"));
    assertInstanceOf(Double.class, stats.getValue("rusage-utime"));
    JsonObject tube = bus.ok("stats-tube", json("tube", "t"));
    assertEquals("t", tube.getString("name"));
    assertEquals(1L, tube.getLong("current-jobs-ready"));
    bus.ok("put", json("tube", "7", "body", "x"));
    assertEquals("7", bus.ok("stats-tube", json("tube", "7")).getValue("name"), "a tube name stays text");
  }

  @Test
  void listTubesAndPauseTube() {
    put("emails", "x");
    assertEquals(json("tubes", new JsonArray().add("default").add("emails")), bus.ok("list-tubes", json()));
    assertEquals(new JsonObject(), bus.ok("pause-tube", json("tube", "emails", "delay", 60)));
    JsonObject tube = bus.ok("stats-tube", json("tube", "emails"));
    assertEquals(60L, tube.getLong("pause"));
    bus.fails("reserve", json("session", "w", "tubes", new JsonArray().add("emails")), Failure.TIMED_OUT);
    bus.ok("pause-tube", json("tube", "emails", "delay", 0));
    assertEquals(1L, bus.ok("reserve", json("session", "w", "tubes", new JsonArray().add("emails"))).getLong("id"));
  }

  @Test
  void quitReturnsTheSessionsJobsToReadyAtOnce() {
    put("t", "x");
    bus.ok("reserve", json("session", "w", "tubes", new JsonArray().add("t")));
    assertEquals("reserved", bus.ok("stats-job", json("id", 1)).getString("state"));
    assertEquals(new JsonObject(), bus.ok("quit", json("session", "w")));
    JsonObject stats = bus.ok("stats-job", json("id", 1));
    assertEquals("ready", stats.getString("state"));
    assertEquals(0L, stats.getLong("timeouts"));
  }

  @Test
  void quitEndsAReserveThatWaits() {
    Future<JsonObject> waiting = bus.send("reserve", json("session", "w", "timeout", 60));
    bus.ok("quit", json("session", "w"));
    ReplyException e = assertInstanceOf(ReplyException.class, Bus.awaitFailure(waiting));
    assertTrue(e.getMessage().startsWith("TIMED_OUT"), e.getMessage());
  }

  @Test
  void onlyTheHoldingSessionMayTouchItsJob() {
    put("t", "x");
    bus.ok("reserve", json("session", "w", "tubes", new JsonArray().add("t")));
    for (String action : List.of("delete", "release", "bury", "touch")) {
      bus.fails(action, json("id", 1, "session", "other"), Failure.NOT_FOUND);
      bus.fails(action, json("id", 1), Failure.NOT_FOUND);
    }
    bus.ok("delete", json("id", 1, "session", "w"));
  }

  @Test
  void anyoneMayDeleteAJobThatIsNotReserved() {
    put("t", "x");
    assertEquals(new JsonObject(), bus.ok("delete", json("id", 1)));
  }

  @Test
  void busAndTcpCommandsAreCountedTogether() throws Exception {
    put("t", "x");
    try (TestClient tcp = TestClient.connect(server.port())) {
      tcp.send("put 0 0 60 1", "y").expect("INSERTED 2");
      assertEquals("2", tcp.stats("stats").get("cmd-put"));
      assertEquals("1", tcp.stats("stats").get("current-connections"));
    }
    assertEquals(2L, bus.ok("stats", json()).getLong("total-jobs"));
  }

  // ---------------------------------------------------------------- every failure word

  @Test
  void badFormatForMissingOrIllTypedFields() {
    bus.fails("reserve", json(), Failure.BAD_FORMAT);
    bus.fails("reserve-job", json("id", 1), Failure.BAD_FORMAT);
    bus.fails("quit", json(), Failure.BAD_FORMAT);
    bus.fails("delete", json(), Failure.BAD_FORMAT);
    bus.fails("delete", json("id", "1"), Failure.BAD_FORMAT);
    bus.fails("delete", json("id", -1), Failure.BAD_FORMAT);
    bus.fails("delete", json("id", 1.5), Failure.BAD_FORMAT);
    bus.fails("put", json(), Failure.BAD_FORMAT);
    bus.fails("put", json("body", "x", "bodyBase64", "eA=="), Failure.BAD_FORMAT);
    bus.fails("put", json("bodyBase64", "not base64!"), Failure.BAD_FORMAT);
    bus.fails("put", json("body", 7), Failure.BAD_FORMAT);
    bus.fails("put", json("body", "x", "pri", 4_294_967_296L), Failure.BAD_FORMAT);
    bus.fails("put", json("body", "x", "pri", "high"), Failure.BAD_FORMAT);
    bus.fails("put", json("body", "x", "delay", -1), Failure.BAD_FORMAT);
    bus.fails("put", json("body", "x", "tube", "-bad"), Failure.BAD_FORMAT);
    bus.fails("put", json("body", "x", "tube", "a".repeat(201)), Failure.BAD_FORMAT);
    bus.fails("reserve", json("session", "w", "tubes", new JsonArray()), Failure.BAD_FORMAT);
    bus.fails("reserve", json("session", "w", "tubes", "default"), Failure.BAD_FORMAT);
    bus.fails("reserve", json("session", 7), Failure.BAD_FORMAT);
    // unlike reserve-with-timeout -1 on TCP, the bus has no "wait forever" (EVENTBUS.md)
    bus.fails("reserve", json("session", "w", "timeout", -1), Failure.BAD_FORMAT);
    bus.fails("reserve", json("session", "w", "timeout", 4_294_967_296L), Failure.BAD_FORMAT);
    bus.fails("kick", json("tube", "t"), Failure.BAD_FORMAT);
    ReplyException e = bus.fails("stats-job", json(), Failure.BAD_FORMAT);
    assertTrue(e.getMessage().contains("'id'"), "the text says which field: " + e.getMessage());
    DeliveryOptions stats = new DeliveryOptions().addHeader("action", "stats");
    ReplyException notJson = assertInstanceOf(ReplyException.class,
        Bus.awaitFailure(vertx.eventBus().request("beanstalkd", "stats please", stats)));
    assertTrue(notJson.getMessage().startsWith("BAD_FORMAT"), notJson.getMessage());
  }

  @Test
  void unknownCommandForAnUnknownOrMissingAction() {
    bus.fails("frobnicate", json(), Failure.UNKNOWN_COMMAND);
    ReplyException e = assertInstanceOf(ReplyException.class,
        Bus.awaitFailure(vertx.eventBus().request("beanstalkd", json())));
    assertEquals(ReplyFailure.RECIPIENT_FAILURE, e.failureType());
    assertTrue(e.getMessage().startsWith("UNKNOWN_COMMAND"), e.getMessage());
  }

  @Test
  void notFound() {
    bus.fails("peek", json("id", 99), Failure.NOT_FOUND);
    bus.fails("peek-ready", json("tube", "none"), Failure.NOT_FOUND);
    bus.fails("peek-delayed", json(), Failure.NOT_FOUND);
    bus.fails("peek-buried", json(), Failure.NOT_FOUND);
    bus.fails("stats-job", json("id", 99), Failure.NOT_FOUND);
    bus.fails("stats-tube", json("tube", "none"), Failure.NOT_FOUND);
    bus.fails("pause-tube", json("tube", "none", "delay", 1), Failure.NOT_FOUND);
    bus.fails("kick-job", json("id", 99), Failure.NOT_FOUND);
    bus.fails("reserve-job", json("id", 99, "session", "w"), Failure.NOT_FOUND);
    assertEquals(List.of("default"), bus.ok("list-tubes", json()).getJsonArray("tubes").getList(),
        "looking at a tube that does not exist does not create it");
  }

  @Test
  void timedOutAtOnceWithoutATimeoutAndAfterItWithOne() {
    bus.fails("reserve", json("session", "w"), Failure.TIMED_OUT);
    long start = System.nanoTime();
    bus.fails("reserve", json("session", "w", "timeout", 1), Failure.TIMED_OUT);
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertTrue(millis >= 900 && millis < 5_000, "waited " + millis + " ms");
  }

  @Test
  void deadlineSoonWhileTheSessionsJobIsAboutToTimeOut() {
    put("t", "x", "ttr", 2);
    bus.ok("reserve", json("session", "w", "tubes", new JsonArray().add("t")));
    bus.fails("reserve", json("session", "w", "tubes", new JsonArray().add("t"), "timeout", 5), Failure.DEADLINE_SOON);
  }

  @Test
  void jobTooBigOverMaxJobSize() {
    bus.fails("put", json("body", "x".repeat(ServerConfig.DEFAULT_MAX_JOB_SIZE + 1)), Failure.JOB_TOO_BIG);
    assertEquals(1L, bus.ok("stats", json()).getLong("cmd-put"), "1.12 counts a put that is too big");
    bus.ok("put", json("body", "x".repeat(ServerConfig.DEFAULT_MAX_JOB_SIZE)));
  }

  @Test
  void drainingRefusesPutsUntilUndrained() {
    Bus.await(server.drain());
    bus.fails("put", json("body", "x"), Failure.DRAINING);
    assertEquals(true, bus.ok("stats", json()).getValue("draining"));
    Bus.await(server.undrain());
    assertEquals(2L, bus.ok("put", json("body", "x")).getLong("id"), "the refused put used up id 1");
  }

  @Test
  void outOfMemoryAndInternalErrorKeepTheirWords() throws Exception {
    // The engine answers these only when the binlog's disk is full or has failed (persistence
    // tests cover when); here, that the front passes the words on with their codes.
    for (Failure f : List.of(Failure.OUT_OF_MEMORY, Failure.INTERNAL_ERROR)) {
      RequestRefused refused = org.junit.jupiter.api.Assertions.assertThrows(RequestRefused.class,
          () -> BusReplies.toJson("put", io.github.vertxbeanstalkd.protocol.Reply.Word.valueOf(f.name())));
      assertEquals(f, refused.failure());
      assertEquals(f.name(), refused.getMessage());
    }
  }

  // ---------------------------------------------------------------- waiting, and the two fronts together

  @Test
  void aTcpPutWakesAWaitingBusReserve() throws Exception {
    Future<JsonObject> waiting = bus.send("reserve", json("session", "w", "tubes", new JsonArray().add("jobs"),
        "timeout", 5));
    awaitWaitingReserves(1);
    try (TestClient tcp = TestClient.connect(server.port())) {
      tcp.send("use jobs").expect("USING jobs");
      tcp.send("put 0 0 60 4", "from").expect("INSERTED 1");
    }
    assertEquals(json("id", 1L, "tube", "jobs", "body", "from"), Bus.await(waiting));
  }

  @Test
  void aBusPutWakesAWaitingTcpReserve() throws Exception {
    try (TestClient tcp = TestClient.connect(server.port())) {
      tcp.send("watch jobs").expect("WATCHING 2");
      tcp.send("reserve-with-timeout 5");
      awaitWaitingReserves(1);
      put("jobs", "over the bus");
      tcp.expect("RESERVED 1 12", "over the bus");
      tcp.send("delete 1").expect("DELETED");
    }
  }

  /** Until the engine counts {@code n} reserves waiting: a put that came first would not test the wake-up. */
  private void awaitWaitingReserves(long n) throws InterruptedException {
    assertTrue(Bus.eventually(5_000, () -> bus.ok("stats", json()).getLong("current-waiting") == n),
        () -> "current-waiting never reached " + n + ": " + bus.ok("stats", json()).getLong("current-waiting"));
  }

  @Test
  void aReplyThatCannotBeDeliveredDoesNotLoseTheJob() throws Exception {
    DeliveryOptions impatient = new DeliveryOptions().addHeader("action", "reserve").setSendTimeout(200);
    Future<?> gaveUp = vertx.eventBus().request("beanstalkd", json("session", "gone", "timeout", 30), impatient);
    assertEquals(ReplyFailure.TIMEOUT, ((ReplyException) Bus.awaitFailure(gaveUp)).failureType());
    put("default", "x", "ttr", 1);
    // The reserve still waits on the server and takes the job; nobody hears of it, so it comes
    // back when its TTR runs out.
    assertTrue(Bus.eventually(5_000, () -> "ready".equals(bus.ok("stats-job", json("id", 1)).getString("state"))
        && bus.ok("stats-job", json("id", 1)).getLong("timeouts") == 1));
  }
}
