package io.github.vertxbeanstalkd.replication.shipping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.cluster.Waits;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A standby whose hello waits on a primary gone silent (the cluster's route to the primary's
 * address still names it) follows the primary that announces itself, through that primary's own
 * address, without waiting for the silent one; a late answer to the hello it gave up on changes
 * nothing it holds (real servers, the real Shipper and Follower in one JVM).
 */
class AnnouncedPrimaryTest {
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
  void theAnnouncedPrimaryIsFollowedWhileAHelloWaitsOnASilentOne() throws Exception {
    pair = new ShippingPair(dir).startPrimary().startStandbyServer().silenceSharedAddress();
    try (TestClient c = TestClient.open(pair.primaryPort(), 10_000)) {
      c.send("put 0 0 60 6", "before").expect("INSERTED 1");
    }
    pair.follow();
    Waits.until(() -> pair.heldHellos() > 0 ? true : null, WAIT_MILLIS, () -> "the standby sent no hello");

    pair.announce();
    // Without the announced primary's own address the standby would send every hello to the silent one.
    Waits.until(() -> pair.isFollowing() ? true : null, WAIT_MILLIS, () -> "the standby never followed");
    try (TestClient c = TestClient.open(pair.primaryPort(), 10_000)) {
      c.send("put 0 0 60 5", "after").expect("INSERTED 2");
    }
    Waits.until(() -> ShippingPair.jobs(pair.primaryPort(), 2).equals(ShippingPair.jobs(pair.standbyPort(), 2))
        ? true : null, WAIT_MILLIS, () -> "the standby never held the primary's jobs");

    // The hello given up on reaches the primary late: it copies the standby again, which ends
    // with the same jobs and following, not with a hole.
    assertTrue(pair.heldHellos() > 0);
    pair.answerHeldHellos();
    try (TestClient c = TestClient.open(pair.primaryPort(), 10_000)) {
      c.send("put 0 0 60 4", "late").expect("INSERTED 3");
    }
    Waits.until(() -> pair.isFollowing() && ShippingPair.jobs(pair.primaryPort(), 3)
        .equals(ShippingPair.jobs(pair.standbyPort(), 3)) ? true : null, WAIT_MILLIS,
        () -> "the standby lost its copy after a late answer");
    assertEquals(3, ShippingPair.jobs(pair.standbyPort(), 3).size());
  }
}
