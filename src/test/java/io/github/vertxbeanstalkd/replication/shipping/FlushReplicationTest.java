package io.github.vertxbeanstalkd.replication.shipping;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.bus.Scope;
import io.github.vertxbeanstalkd.bus.SessionCalls;
import io.github.vertxbeanstalkd.cluster.Waits;
import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.Reply;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A flush on a primary reaches its standby (real servers with their binlogs, the real Shipper and
 * Follower in one JVM) as the deletes it made, into its engine and its own log, so the node that
 * takes over holds exactly the jobs the flush left.
 */
class FlushReplicationTest {
  private static final long WAIT_MILLIS = 60_000;
  private static final int JOBS = 5_000;
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
  void theStandbyLosesTheFlushedJobsAndKeepsTheOthers() throws Exception {
    pair = new ShippingPair(dir).startPrimary().startStandbyServer();
    pair.followCopied();
    try (TestClient c = TestClient.open(pair.primaryPort(), 10_000)) {
      c.send("use big").expect("USING big");
      StringBuilder batch = new StringBuilder();
      for (int i = 0; i < JOBS; i++) {
        batch.append("put 0 0 60 3\r\njob\r\n");
      }
      c.sendRaw(batch.toString());
      for (int i = 0; i < JOBS; i++) {
        c.readLine();
      }
      c.send("reserve-job 1").readLine();
      c.readLine();
      c.send("bury 1 0").expect("BURIED");
      Reply flushed = pair.onPrimaryEngine(client -> {
        SessionCalls session = new SessionCalls(client, null);
        return session.call(Command.Flush.READY, Scope.using("big")).eventually(session::close);
      });
      assertEquals(Reply.Number.flushed(JOBS - 1), flushed);
    }
    Waits.until(() -> ShippingPair.jobs(pair.primaryPort(), JOBS).equals(ShippingPair.jobs(pair.standbyPort(), JOBS))
        ? true : null, WAIT_MILLIS, () -> "the standby never held the primary's jobs");
    assertEquals(1, ShippingPair.jobs(pair.standbyPort(), JOBS).size(), "only the buried job is left");

    // The node that takes over starts from its own log: the flushed jobs stay gone there too.
    pair.killStandby();
    pair.startStandbyServer();
    try (TestClient c = TestClient.open(pair.standbyPort(), 10_000)) {
      assertEquals("buried", c.stats("stats-job 1").get("state"));
      assertEquals("0", c.stats("stats-tube big").get("current-jobs-ready"));
    }
  }
}
