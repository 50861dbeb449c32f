package io.github.vertxbeanstalkd.engine;

import static io.github.vertxbeanstalkd.engine.Commands.bury;
import static io.github.vertxbeanstalkd.engine.Commands.delete;
import static io.github.vertxbeanstalkd.engine.Commands.ignore;
import static io.github.vertxbeanstalkd.engine.Commands.kick;
import static io.github.vertxbeanstalkd.engine.Commands.kickJob;
import static io.github.vertxbeanstalkd.engine.Commands.listTubeUsed;
import static io.github.vertxbeanstalkd.engine.Commands.listTubes;
import static io.github.vertxbeanstalkd.engine.Commands.listTubesWatched;
import static io.github.vertxbeanstalkd.engine.Commands.pauseTube;
import static io.github.vertxbeanstalkd.engine.Commands.peek;
import static io.github.vertxbeanstalkd.engine.Commands.peekBuried;
import static io.github.vertxbeanstalkd.engine.Commands.peekDelayed;
import static io.github.vertxbeanstalkd.engine.Commands.peekReady;
import static io.github.vertxbeanstalkd.engine.Commands.put;
import static io.github.vertxbeanstalkd.engine.Commands.release;
import static io.github.vertxbeanstalkd.engine.Commands.reserve;
import static io.github.vertxbeanstalkd.engine.Commands.reserveJob;
import static io.github.vertxbeanstalkd.engine.Commands.reserveWithTimeout;
import static io.github.vertxbeanstalkd.engine.Commands.statsJob;
import static io.github.vertxbeanstalkd.engine.Commands.statsTube;
import static io.github.vertxbeanstalkd.engine.Commands.touch;
import static io.github.vertxbeanstalkd.engine.Commands.use;
import static io.github.vertxbeanstalkd.engine.Commands.watch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** BEHAVIOURS.md 11: what the stats documents count, and their key order. */
class StatsCountersTest {
  final EngineFixture f = new EngineFixture();
  final Session client = f.open();

  @Test
  void theFirstStatsAlreadyCountsItself() {
    assertEquals("1", f.stats().get("cmd-stats"));
  }

  @Test
  void everyCommandIsCountedWhateverItsOutcome() {
    f.send(client, delete(9), release(9, 0, 0), bury(9, 0), touch(9), peek(9), peekReady(), peekDelayed(),
        peekBuried(), kick(0), statsJob(9), statsTube("nosuch"), listTubes(), listTubeUsed(), listTubesWatched(),
        pauseTube("nosuch", 1), use("x"), watch("x"), ignore("nosuch"), reserveWithTimeout(0));
    Map<String, String> s = f.stats();
    for (String key : List.of("cmd-delete", "cmd-release", "cmd-bury", "cmd-touch", "cmd-peek", "cmd-peek-ready",
        "cmd-peek-delayed", "cmd-peek-buried", "cmd-kick", "cmd-stats-job", "cmd-stats-tube", "cmd-list-tubes",
        "cmd-list-tube-used", "cmd-list-tubes-watched", "cmd-pause-tube", "cmd-use", "cmd-watch", "cmd-ignore",
        "cmd-reserve-with-timeout")) {
      assertEquals("1", s.get(key), key);
    }
    assertEquals("0", s.get("cmd-reserve"));
  }

  @Test
  void reserveJobAndKickJobAreNotCounted() {
    f.send(client, put(0, 10, 60, "job"), kickJob(1), reserveJob(1));
    Map<String, String> s = f.stats();
    assertEquals("0", s.get("cmd-kick"));
    assertEquals("0", s.get("cmd-reserve"));
    assertEquals("0", s.get("cmd-reserve-with-timeout"));
    assertEquals("1", s.get("current-workers"), "a successful reserve-job makes a worker");
  }

  @Test
  void jobsAreCountedByStateAndUrgencyBelow1024() {
    f.send(client, put(1023, 0, 60, "urgent"), put(1024, 0, 60, "not urgent"), put(0, 60, 60, "delayed"),
        put(0, 0, 60, "reserved"), put(0, 0, 60, "buried"));
    f.send(client, reserveJob(4), reserveJob(5), bury(5, 0));
    Map<String, String> s = f.stats();
    assertEquals("1", s.get("current-jobs-urgent"));
    assertEquals("2", s.get("current-jobs-ready"));
    assertEquals("1", s.get("current-jobs-reserved"));
    assertEquals("1", s.get("current-jobs-delayed"));
    assertEquals("1", s.get("current-jobs-buried"));
    assertEquals("5", s.get("total-jobs"));
    Map<String, String> t = f.statsTube("default");
    assertEquals("1", t.get("current-jobs-urgent"));
    assertEquals("2", t.get("current-jobs-ready"));
    assertEquals("5", t.get("total-jobs"));
  }

  @Test
  void connectionsProducersWorkersAndWaitersAreCountedPerConnection() {
    Session worker = f.open();
    f.send(client, put("a"), put("b"));
    f.send(worker, reserve(), reserve(), reserve());
    Map<String, String> s = f.stats();
    assertEquals("3", s.get("current-connections"), "client, worker and the observer");
    assertEquals("3", s.get("total-connections"));
    assertEquals("1", s.get("current-producers"));
    assertEquals("1", s.get("current-workers"));
    assertEquals("1", s.get("current-waiting"));
    assertEquals("1", f.statsTube("default").get("current-waiting"));
    f.engine.close(worker.key);
    s = f.stats();
    assertEquals("2", s.get("current-connections"));
    assertEquals("3", s.get("total-connections"));
    assertEquals("0", s.get("current-workers"));
    assertEquals("0", s.get("current-waiting"));
  }

  @Test
  void statsTubeCountsUsersWatchersDeletesAndPauses() {
    f.send(client, use("x"), watch("x"), put("job"), delete(1), pauseTube("x", 0));
    Map<String, String> t = f.statsTube("x");
    assertEquals("1", t.get("current-using"));
    assertEquals("1", t.get("current-watching"));
    assertEquals("1", t.get("cmd-delete"));
    assertEquals("1", t.get("cmd-pause-tube"));
    assertEquals("1", t.get("total-jobs"));
  }

  @Test
  void statsJobReportsAgeAndCountersInTheReferenceKeyOrder() {
    f.send(client, put(7, 0, 30, "job"));
    f.passMillis(3_500);
    Map<String, String> j = f.statsJob(1);
    assertEquals(List.of("id", "tube", "state", "pri", "age", "delay", "ttr", "time-left", "file", "reserves",
        "timeouts", "releases", "buries", "kicks"), List.copyOf(j.keySet()));
    assertEquals(List.of("1", "default", "ready", "7", "3", "0", "30", "0", "0", "0", "0", "0", "0", "0"),
        List.copyOf(j.values()));
  }

  @Test
  void statsTubeKeysAreInTheReferenceOrder() {
    assertEquals(List.of("name", "current-jobs-urgent", "current-jobs-ready", "current-jobs-reserved",
        "current-jobs-delayed", "current-jobs-buried", "total-jobs", "current-using", "current-watching",
        "current-waiting", "cmd-delete", "cmd-pause-tube", "pause", "pause-time-left"),
        List.copyOf(f.statsTube("default").keySet()));
  }

  @Test
  void statsKeysAreInTheReferenceOrder() {
    assertEquals(List.of("current-jobs-urgent", "current-jobs-ready", "current-jobs-reserved",
        "current-jobs-delayed", "current-jobs-buried", "cmd-put", "cmd-peek", "cmd-peek-ready", "cmd-peek-delayed",
        "cmd-peek-buried", "cmd-reserve", "cmd-reserve-with-timeout", "cmd-delete", "cmd-release", "cmd-use",
        "cmd-watch", "cmd-ignore", "cmd-bury", "cmd-kick", "cmd-touch", "cmd-stats", "cmd-stats-job",
        "cmd-stats-tube", "cmd-list-tubes", "cmd-list-tube-used", "cmd-list-tubes-watched", "cmd-pause-tube",
        "job-timeouts", "total-jobs", "max-job-size", "current-tubes", "current-connections", "current-producers",
        "current-workers", "current-waiting", "total-connections", "pid", "version", "rusage-utime",
        "rusage-stime", "uptime", "binlog-oldest-index", "binlog-current-index", "binlog-records-migrated",
        "binlog-records-written", "binlog-max-size", "draining", "id", "hostname", "os", "platform",
        "current-job-store-bytes", "current-memory-bytes", "max-memory-bytes", "rejected-connections"),
        List.copyOf(f.stats().keySet()));
  }

  @Test
  void jobStoreBytesCountRecordsAndBodiesAndFallOnceTheJobsAreGone() {
    EngineFixture f = new EngineFixture();
    long empty = storeBytes(f);
    Session s = f.open();
    int jobs = 40_000;
    putJobs(f, s, jobs);
    long full = storeBytes(f);
    // A 104-byte record and a 104-byte body slot per job, the id index and the ready heap (4 to 8
    // bytes each), and the room not yet handed out in the record and body blocks (at most a fifth
    // of each: blocks grow by a quarter).
    long grown = full - empty;
    assertTrue(grown >= jobs * (104L + 104), "grew by " + grown);
    assertTrue(grown <= jobs * (104L + 104 + 16) + (3L << 20), "grew by " + grown);
    deleteJobs(f, s, jobs);
    f.engine.trimJobStore();
    f.engine.trimJobStore();
    long drained = storeBytes(f);
    // The heaps' arrays may stay a few hundred bytes above their first size.
    assertTrue(drained <= empty + 1024, "after the drain " + drained + " bytes, " + empty + " when new");
  }

  @Test
  void aDrainedBacklogsPagesGoBackABudgetATrimNotAllAtOnce() {
    EngineFixture f = new EngineFixture();
    long empty = storeBytes(f);
    Session s = f.open();
    int jobs = 200_000;
    putJobs(f, s, jobs);
    deleteJobs(f, s, jobs);
    f.engine.trimJobStore();
    long before = storeBytes(f);
    assertTrue(before - empty > 3 * JobTable.TRIM_BYTES_PER_CALL, "the drained backlog holds " + before);
    int trims = 0;
    long now = before;
    while (now > empty + 1024) {
      f.engine.trimJobStore();
      long after = storeBytes(f);
      // At most the budget and the one page that crosses it (8 MiB at most).
      assertTrue(now - after <= JobTable.TRIM_BYTES_PER_CALL + (8L << 20), "one trim gave back " + (now - after));
      assertTrue(after < now, "a trim gave back nothing while " + after + " bytes were left");
      now = after;
      trims++;
    }
    assertTrue(trims >= 3, trims + " trims");
  }

  private static long storeBytes(EngineFixture f) {
    return Long.parseLong(f.stats().get("current-job-store-bytes"));
  }

  /** Puts jobs of 100 bytes, ids 1 to {@code jobs} on a fresh fixture. */
  private static void putJobs(EngineFixture f, Session s, int jobs) {
    String body = "x".repeat(100);
    for (int i = 0; i < jobs; i++) {
      f.one(s, Commands.put(body));
    }
  }

  private static void deleteJobs(EngineFixture f, Session s, int jobs) {
    for (int id = 1; id <= jobs; id++) {
      f.one(s, Commands.delete(id));
    }
  }

  @Test
  void statsReportsTheConfiguredLimitsAndFixedFacts() {
    Map<String, String> s = new EngineFixture(1234).stats();
    assertEquals("1234", s.get("max-job-size"));
    assertEquals("\"1.12\"", s.get("version"));
    assertEquals("10485760", s.get("binlog-max-size"));
    assertEquals("1", s.get("current-tubes"));
  }
}
