package io.github.vertxbeanstalkd.replication.shipping;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.bus.TubeSettingsAnswer;
import io.github.vertxbeanstalkd.cluster.Waits;
import io.github.vertxbeanstalkd.protocol.TubeSettings;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tube settings, dead letters and a kicked job's fresh count reach a standby (real servers with
 * their binlogs, the real Shipper and Follower in one JVM): through its full copy and through the
 * stream after it, into its engine and its own log, so that the node that takes over has them.
 */
class TubeSettingsReplicationTest {
  private static final long WAIT_MILLIS = 60_000;
  @TempDir
  Path dir;
  private ShippingPair pair;

  @AfterEach
  void close() throws Exception {
    if (pair != null) {
      pair.close();
    }
  }

  private void set(String tube, TubeSettings settings) {
    TubeSettingsAnswer a = pair.onPrimaryEngine(engine -> engine.tubeSettings(tube, settings));
    assertEquals(true, a.isChanged());
  }

  private static String reserveAndRelease(TestClient c, long id) {
    c.send("reserve-job " + id).readLine();
    c.readLine();
    return c.send("release " + id + " 0 0").readLine();
  }

  @Test
  void theCopyAndTheStreamCarryTheSettingsAndTheNotes() throws Exception {
    pair = new ShippingPair(dir).startPrimary().startStandbyServer();
    set("work", new TubeSettings(null, null, 3L, "dead"));
    set("capped", new TubeSettings(1L, null, null, null));
    try (TestClient c = TestClient.open(pair.primaryPort(), 10_000)) {
      c.send("use work").expect("USING work");
      c.send("put 0 0 60 4", "dies").expect("INSERTED 1");
      c.send("put 0 0 60 6", "kicked").expect("INSERTED 2");
      assertEquals("RELEASED", reserveAndRelease(c, 1));
      assertEquals("RELEASED", reserveAndRelease(c, 1));
      assertEquals("BURIED", reserveAndRelease(c, 1));
      c.send("reserve-job 2").readLine();
      c.readLine();
      c.send("bury 2 0").expect("BURIED");
      c.send("kick 1").expect("KICKED 1");
    }
    // The copy: the table and both notes come with the jobs.
    pair.followCopied();
    Map<String, TubeSettings> copied = pair.onPrimaryEngine(engine -> engine.tubeSettings(null, null)).table();
    assertEquals(copied, pair.onStandbyEngine(e -> e.tubeSettings(null, null)).table());
    // The stream: a change of the table, and a kicked job's next reserve.
    set("capped", new TubeSettings(2L, null, null, null));
    try (TestClient c = TestClient.open(pair.primaryPort(), 10_000)) {
      c.send("watch work").readLine();
      assertEquals("RELEASED", reserveAndRelease(c, 2));
    }
    Map<String, TubeSettings> expected = pair.onPrimaryEngine(engine -> engine.tubeSettings(null, null)).table();
    assertEquals(2L, expected.get("capped").maxJobs());
    Waits.until(() -> expected.equals(pair.onStandbyEngine(e -> e.tubeSettings(null, null)).table()) ? true : null,
        WAIT_MILLIS, () -> "the standby never had the primary's table");
    Waits.until(() -> ShippingPair.jobs(pair.primaryPort(), 2).equals(ShippingPair.jobs(pair.standbyPort(), 2))
        ? true : null, WAIT_MILLIS, () -> "the standby never held the primary's jobs");
    assertEquals("work", pair.onStandbyEngine(e -> e.deadLetteredFrom(1)));

    // The node that takes over starts from its own log: everything is there.
    pair.killStandby();
    pair.startStandbyServer();
    assertEquals(expected, pair.onStandbyEngine(e -> e.tubeSettings(null, null)).table());
    assertEquals("work", pair.onStandbyEngine(e -> e.deadLetteredFrom(1)));
    try (TestClient c = TestClient.open(pair.standbyPort(), 10_000)) {
      var dead = c.stats("stats-job 1");
      assertEquals("dead", dead.get("tube"));
      assertEquals("buried", dead.get("state"));
      // Job 2 was kicked after its first reserve and reserved once since: its third reserve since the
      // kick reaches maxReserves 3 (had its count started at its put, the second would have).
      assertEquals("RELEASED", reserveAndRelease(c, 2));
      assertEquals("BURIED", reserveAndRelease(c, 2));
      assertEquals("dead", c.stats("stats-job 2").get("tube"));
      c.send("use capped").expect("USING capped");
      c.send("put 0 0 60 1", "a").expect("INSERTED 3");
      c.send("put 0 0 60 1", "b").expect("INSERTED 4");
      c.send("put 0 0 60 1", "c").expect("OUT_OF_MEMORY");
    }
  }
}
