package io.github.vertxbeanstalkd.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.TestClient;
import org.junit.jupiter.api.Test;

/** BEHAVIOURS.md 1 and 6: a connection that goes away gives its reserved jobs back. */
class QuitAndDisconnectTest extends DeployedServerTest {

  @Test
  void aDisconnectReleasesReservedJobsToAWaitingReserver() {
    TestClient holder = connect();
    TestClient waiter = connect();
    holder.send("put 0 0 60 1", "a", "put 0 0 60 1", "b").expect("INSERTED 1", "INSERTED 2");
    holder.send("reserve", "reserve").expect("RESERVED 1 1", "a", "RESERVED 2 1", "b");
    waiter.send("reserve");
    waiter.expectNothingFor(100);
    holder.close();
    waiter.expect("RESERVED 1 1", "a");
    var job = waiter.stats("stats-job 2");
    assertEquals("ready", job.get("state"));
    assertEquals("0", job.get("timeouts"));
    assertEquals("0", job.get("releases"));
  }

  @Test
  void quitClosesAtOnceIgnoresWhatFollowsAndReleasesJobs() {
    TestClient holder = connect();
    TestClient waiter = connect();
    holder.send("put 0 0 60 1", "a").expect("INSERTED 1");
    holder.send("reserve").expect("RESERVED 1 1", "a");
    waiter.send("reserve");
    holder.sendRaw("quit\r\nput 0 0 60 1\r\nx\r\nlist-tube-used\r\n");
    holder.expectClosed();
    waiter.expect("RESERVED 1 1", "a");
    var stats = waiter.stats("stats");
    assertEquals("1", stats.get("cmd-put"), "the put pipelined after quit never ran");
    assertEquals("1", stats.get("total-jobs"));
  }

  @Test
  void quitAfterPipelinedCommandsAnswersThemFirst() {
    TestClient c = connect();
    c.sendRaw("put 0 0 60 1\r\na\r\nlist-tube-used\r\nquit\r\n");
    c.expect("INSERTED 1", "USING default");
    c.expectClosed();
  }

  @Test
  void connectionCountsFollowConnectsAndDisconnects() throws InterruptedException {
    TestClient a = connect();
    TestClient b = connect();
    // A connect returns once the kernel has the connection; the server counts it when it accepts it.
    assertEquals(true, eventually(2_000, () -> "2".equals(a.stats("stats").get("current-connections"))));
    b.close();
    assertEquals(true, eventually(2_000, () -> "1".equals(a.stats("stats").get("current-connections"))));
    assertEquals("2", a.stats("stats").get("total-connections"));
  }
}
