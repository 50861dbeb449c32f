package io.github.vertxbeanstalkd.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import org.junit.jupiter.api.Test;

/** BEHAVIOURS.md 1, 5 and 6 in real time: blocked reserves, their timeouts, and TTR expiry. */
class BlockingReserveTest extends DeployedServerTest {

  @Test
  void aBlockedReserveIsWokenByAnotherConnectionsPut() {
    TestClient worker = connect();
    TestClient producer = connect();
    worker.send("reserve");
    worker.expectNothingFor(200);
    producer.send("put 0 0 60 3", "job").expect("INSERTED 1");
    worker.expect("RESERVED 1 3", "job");
  }

  @Test
  void reserveWithTimeoutOneAnswersTimedOutAfterAboutOneSecond() {
    TestClient worker = connect();
    long start = System.nanoTime();
    worker.send("reserve-with-timeout 1").expect("TIMED_OUT");
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertTrue(millis >= 950 && millis < 2_500, "TIMED_OUT after " + millis + " ms");
  }

  @Test
  void aTtrExpiresOnTimeWhileTheHolderIsIdle() {
    TestClient holder = connect();
    TestClient other = connect();
    holder.send("put 0 0 1 3", "job").expect("INSERTED 1");
    holder.send("reserve").expect("RESERVED 1 3", "job");
    long start = System.nanoTime();
    // The holder sends nothing more; the job must come back by itself (BEHAVIOURS.md 6, bug #262).
    other.send("reserve-with-timeout 4").expect("RESERVED 1 3", "job");
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertTrue(millis >= 900 && millis < 2_500, "job came back after " + millis + " ms");
    var job = other.stats("stats-job 1");
    assertEquals("1", job.get("timeouts"));
    assertEquals("2", job.get("reserves"));
    assertEquals("1", other.stats("stats").get("job-timeouts"));
    holder.send("delete 1").expect("NOT_FOUND");
  }

  @Test
  void aBlockedReserveIsAnsweredDeadlineSoonWhenTheMarginBegins() {
    TestClient holder = connect();
    holder.send("put 0 0 2 3", "job").expect("INSERTED 1");
    holder.send("reserve").expect("RESERVED 1 3", "job");
    long start = System.nanoTime();
    holder.send("reserve").expect("DEADLINE_SOON");
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertTrue(millis >= 900 && millis < 1_900, "DEADLINE_SOON after " + millis + " ms");
    holder.send("delete 1").expect("DELETED");
  }

  @Test
  void commandsPipelinedBehindABlockedReserveAreAnsweredAfterIt() {
    TestClient worker = connect();
    TestClient producer = connect();
    worker.send("reserve", "list-tube-used", "peek 1");
    worker.expectNothingFor(200);
    producer.send("put 0 0 60 3", "job").expect("INSERTED 1");
    worker.expect("RESERVED 1 3", "job", "USING default", "FOUND 1 3", "job");
  }

  @Test
  void aReserveBlockedWhileOtherTrafficFlowsIsAnsweredSecondsLater() {
    TestClient worker = connect();
    TestClient busy = connect();
    worker.send("reserve");
    busy.send("use other");
    busy.expect("USING other");
    long end = System.nanoTime() + 2_500_000_000L;
    int round = 0;
    while (System.nanoTime() < end) {
      round++;
      busy.send("put 0 0 60 4", "busy").expect("INSERTED " + round);
      busy.send("delete " + round).expect("DELETED");
    }
    worker.expectNothingFor(50);
    busy.send("use default", "put 0 0 60 4", "late").expect("USING default", "INSERTED " + (round + 1));
    worker.expect("RESERVED " + (round + 1) + " 4", "late");
  }

  @Test
  void halfClosingWhileBlockedInAReserveAnswersTimedOutThenCloses() throws Exception {
    TestClient worker = connect();
    worker.send("reserve");
    worker.expectNothingFor(100);
    worker.socket().shutdownOutput();
    worker.expect("TIMED_OUT");
    worker.expectClosed();
  }
}
