package io.github.vertxbeanstalkd.durability;

import static io.github.vertxbeanstalkd.durability.Wire.number;
import static io.github.vertxbeanstalkd.durability.Wire.peek;
import static io.github.vertxbeanstalkd.durability.Wire.put;
import static io.github.vertxbeanstalkd.durability.Wire.reserveJob;
import static io.github.vertxbeanstalkd.durability.Wire.statsJob;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end through the real verticles: jobs in every state survive an orderly restart on the same
 * binlog directory (FORMAT.md "Which change writes which record"), as seen over the wire.
 */
@ExtendWith(VertxExtension.class)
class RestartTest {
  private static final String BINARY_TUBE = "a;b.c$_(x)+/-";
  @TempDir Path dir;

  @Test
  void everyJobComesBackWithItsBodyTubeStatePriorityDelayDeadlineAndCounters(Vertx vertx) throws Exception {
    ServerConfig config = ServerLife.config(dir);
    Map<Long, byte[]> bodies = new LinkedHashMap<>();
    Map<Long, Map<String, String>> before = new LinkedHashMap<>();
    List<Long> heldAtRestart = new ArrayList<>();
    long deleted;
    long heldFromReady;
    long beforeNanos;
    ServerLife first = ServerLife.startOn(vertx, config);
    try (TestClient c = TestClient.connect(first.port()); TestClient holder = TestClient.connect(first.port())) {
      byte[] binary = new byte[300];
      new Random(7).nextBytes(binary);
      binary[10] = '\r';
      binary[11] = '\n';
      byte[] large = new byte[60_000];
      new Random(8).nextBytes(large);
      long ready = put(c, "emails", 10, 0, 30, "hello".getBytes(StandardCharsets.US_ASCII));
      long delayed = put(c, BINARY_TUBE, 20, 100, 60, binary);
      long empty = put(c, "default", 4294967295L, 0, 1, new byte[0]);
      long big = put(c, "emails", 1023, 0, 60, large);

      long buried = put(c, "default", 30, 0, "to bury");
      reserveJob(c, buried);
      c.send("bury " + buried + " 7").expect("BURIED");

      long held = put(c, "held", 40, 0, "held by a client at restart");
      reserveJob(holder, held);
      heldAtRestart.add(held);
      heldFromReady = held;

      long releasedDelayed = put(c, "emails", 100, 0, "released with a delay");
      reserveJob(c, releasedDelayed);
      c.send("release " + releasedDelayed + " 5 60").expect("RELEASED");

      long releasedReady = put(c, "emails", 100, 0, "released at once");
      reserveJob(c, releasedReady);
      c.send("release " + releasedReady + " 3 0").expect("RELEASED");

      long kicked = put(c, "kick", 50, 0, "buried, then kicked");
      c.send("watch kick").expect("WATCHING 2");
      c.send("ignore default").expect("WATCHING 1");
      c.send("reserve-with-timeout 0");
      assertTrue(c.readLine().startsWith("RESERVED " + kicked + " "));
      c.readLine();
      c.send("bury " + kicked + " 8").expect("BURIED");
      c.send("use kick").expect("USING kick").send("kick 1").expect("KICKED 1");

      long kickedFromDelay = put(c, "kick", 60, 100, "delayed, then kick-job'ed");
      c.send("kick-job " + kickedFromDelay).expect("KICKED");

      long reservedFromBuried = put(c, "held", 70, 0, "buried, then reserve-job'ed");
      reserveJob(c, reservedFromBuried);
      c.send("bury " + reservedFromBuried + " 9").expect("BURIED");
      reserveJob(holder, reservedFromBuried);
      heldAtRestart.add(reservedFromBuried);

      long reservedFromDelay = put(c, "held", 80, 100, "delayed, then reserve-job'ed");
      reserveJob(holder, reservedFromDelay);
      heldAtRestart.add(reservedFromDelay);

      // Same priorities in one tube: the restart must rebuild the ready heap (priority, then id).
      long order3 = put(c, "order", 3, 0, "o3");
      long order1a = put(c, "order", 1, 0, "o1a");
      long order2 = put(c, "order", 2, 0, "o2");
      long order1b = put(c, "order", 1, 0, "o1b");

      deleted = put(c, "emails", 1, 0, "deleted: the highest id ever issued");
      c.send("delete " + deleted).expect("DELETED");

      for (long id : List.of(ready, delayed, empty, big, buried, held, releasedDelayed, releasedReady, kicked,
          kickedFromDelay, reservedFromBuried, reservedFromDelay, order3, order1a, order2, order1b)) {
        bodies.put(id, peekOrReserved(c, holder, id, heldAtRestart));
        before.put(id, statsJob(c, id));
      }
      // What the scenario meant to set up, so that the comparison below compares the right things.
      assertEquals("delayed", before.get(releasedDelayed).get("state"));
      assertEquals("5", before.get(releasedDelayed).get("pri"));
      assertEquals("60", before.get(releasedDelayed).get("delay"));
      assertEquals("buried", before.get(buried).get("state"));
      assertEquals("7", before.get(buried).get("pri"));
      assertEquals("ready", before.get(kicked).get("state"));
      assertEquals("1", before.get(kicked).get("kicks"));
      assertEquals("ready", before.get(kickedFromDelay).get("state"));
      assertEquals("2", before.get(reservedFromBuried).get("reserves"));
      assertEquals("reserved", before.get(reservedFromDelay).get("state"));
      beforeNanos = System.nanoTime();
    }
    first.close();

    try (ServerLife second = ServerLife.startOn(vertx, config); TestClient c = TestClient.connect(second.port())) {
      long elapsedSeconds = (System.nanoTime() - beforeNanos) / 1_000_000_000L + 1;
      for (Map.Entry<Long, Map<String, String>> e : before.entrySet()) {
        long id = e.getKey();
        assertArrayEquals(bodies.get(id), peek(c, id), "body of job " + id);
        assertRestored(id, e.getValue(), statsJob(c, id), id == heldFromReady, elapsedSeconds);
      }
      Wire.expectGone(c, deleted);
      assertTotals(before, heldAtRestart, c.stats("stats"));

      c.send("watch order").expect("WATCHING 2").send("ignore default").expect("WATCHING 1");
      for (String body : List.of("o1a", "o1b", "o2", "o3")) {
        c.send("reserve-with-timeout 0");
        String header = c.readLine();
        assertTrue(header.startsWith("RESERVED "), header);
        assertEquals(body, c.readLine(), "the ready heap after a restart: priority, then id");
      }
      long next = put(c, "emails", 1, 0, "after the restart");
      assertTrue(next > deleted, "new id " + next + " must be above " + deleted + ", the highest ever issued");
    }
  }

  private static byte[] peekOrReserved(TestClient c, TestClient holder, long id, List<Long> held) {
    // peek finds reserved jobs too (BEHAVIOURS.md: peek <id> looks at any state).
    return peek(held.contains(id) ? holder : c, id);
  }

  /**
   * FORMAT.md: a reserved job comes back ready; a delayed job keeps its wall-clock deadline; every
   * other field is as before, counters as of the job's last logged change. A reserve of a ready job
   * is not logged (neither in beanstalkd 1.12), so its count is one less after the restart.
   */
  private static void assertRestored(long id, Map<String, String> before, Map<String, String> after,
      boolean wasReservedFromReady, long elapsedSeconds) {
    String where = "job " + id + " before " + before + " after " + after;
    for (String key : List.of("id", "tube", "pri", "delay", "ttr", "timeouts", "releases", "buries", "kicks")) {
      assertEquals(before.get(key), after.get(key), key + " of " + where);
    }
    String state = before.get("state").equals("reserved") ? "ready" : before.get("state");
    assertEquals(state, after.get("state"), where);
    long reservesLost = wasReservedFromReady ? 1 : 0;
    assertEquals(number(before, "reserves") - reservesLost, number(after, "reserves"), "reserves of " + where);
    assertTrue(number(after, "age") >= number(before, "age"), where);
    assertTrue(number(after, "file") > 0, "file of " + where);
    if (state.equals("delayed")) {
      long left = number(after, "time-left");
      assertTrue(left <= number(before, "time-left") && left >= number(before, "time-left") - elapsedSeconds,
          "the deadline moved: " + where);
    } else {
      assertEquals(0, number(after, "time-left"), where);
    }
  }

  private static void assertTotals(Map<Long, Map<String, String>> before, List<Long> held,
      Map<String, String> stats) {
    Map<String, Long> expected = new LinkedHashMap<>(Map.of("ready", 0L, "delayed", 0L, "buried", 0L));
    before.forEach((id, s) -> expected.merge(held.contains(id) ? "ready" : s.get("state"), 1L, Long::sum));
    expected.forEach((state, n) -> assertEquals(n, number(stats, "current-jobs-" + state), state));
    assertEquals(0, number(stats, "current-jobs-reserved"));
    assertTrue(number(stats, "binlog-oldest-index") >= 1, stats.toString());
    assertTrue(number(stats, "binlog-current-index") > number(stats, "binlog-oldest-index"),
        "a restart starts a new segment: " + stats);
    assertTrue(number(stats, "binlog-records-written") > 0, stats.toString());
    assertTrue(number(stats, "binlog-max-size") > 0, stats.toString());
  }
}
