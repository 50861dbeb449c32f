package io.github.vertxbeanstalkd.replication.shipping;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.cluster.Waits;
import io.github.vertxbeanstalkd.protocol.TubeSettings;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * maxAge on a primary reaches its standby (real servers with their binlogs, the real Shipper and
 * Follower in one JVM): the settings with expiry, and the bury and delete they make, so the node
 * that takes over holds the same jobs.
 */
class ExpiryReplicationTest {
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

  @Test
  void theStandbyHasTheSettingsAndWhatTheyExpired() throws Exception {
    pair = new ShippingPair(dir).startPrimary().startStandbyServer();
    pair.followCopied();
    assertEquals(true, pair.onPrimaryEngine(e -> e.tubeSettings("buries",
        new TubeSettings(null, null, null, null, 1L, TubeSettings.BURY))).isChanged());
    assertEquals(true, pair.onPrimaryEngine(e -> e.tubeSettings("deletes",
        new TubeSettings(null, null, null, null, 1L, TubeSettings.DELETE))).isChanged());
    try (TestClient c = TestClient.open(pair.primaryPort(), 10_000)) {
      c.send("use buries").expect("USING buries");
      c.send("put 0 0 60 1", "b").expect("INSERTED 1");
      c.send("use deletes").expect("USING deletes");
      c.send("put 0 0 60 1", "d").expect("INSERTED 2");
    }
    Waits.until(() -> {
      try (TestClient c = TestClient.open(pair.standbyPort(), 10_000)) {
        boolean isBuried = "buried".equals(c.stats("stats-job 1").get("state"));
        boolean isGone = c.send("stats-job 2").readLine().equals("NOT_FOUND");
        return isBuried && isGone ? true : null;
      } catch (java.io.IOException | RuntimeException | AssertionError notYet) {
        return null;
      }
    }, WAIT_MILLIS, () -> "the standby never had job 1 buried and job 2 deleted");
    Map<String, TubeSettings> expected = pair.onPrimaryEngine(e -> e.tubeSettings(null, null)).table();
    assertEquals(expected, pair.onStandbyEngine(e -> e.tubeSettings(null, null)).table());

    // The node that takes over starts from its own log (type 10 settings included).
    pair.killStandby();
    pair.startStandbyServer();
    assertEquals(expected, pair.onStandbyEngine(e -> e.tubeSettings(null, null)).table());
    try (TestClient c = TestClient.open(pair.standbyPort(), 10_000)) {
      assertEquals("buried", c.stats("stats-job 1").get("state"));
    }
  }
}
