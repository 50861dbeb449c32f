package io.github.vertxbeanstalkd.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import org.junit.jupiter.api.Test;

/**
 * BEHAVIOURS.md 3 (required) in real time: {@code reserve-with-timeout} reads its number as 1.12's
 * {@code strtol} into an int does, which published clients rely on ({@code -1} waits forever).
 */
class ReserveWithTimeoutArgumentTest extends DeployedServerTest {

  @Test
  void minusOneWaitsUntilAnotherConnectionPutsAJob() {
    TestClient worker = connect();
    TestClient producer = connect();
    worker.send("reserve-with-timeout -1");
    worker.expectNothingFor(1_500);
    producer.send("put 0 0 60 3", "job").expect("INSERTED 1");
    worker.expect("RESERVED 1 3", "job");
    assertEquals("1", producer.stats("stats").get("cmd-reserve-with-timeout"));
  }

  @Test
  void aPlusSignOrTextAfterTheNumberStillTimesOutAfterOneSecond() {
    TestClient signed = connect();
    TestClient trailing = connect();
    long start = System.nanoTime();
    signed.send("reserve-with-timeout +1");
    trailing.send("reserve-with-timeout 1x");
    signed.expect("TIMED_OUT");
    long signedMillis = millisSince(start);
    trailing.expect("TIMED_OUT");
    long trailingMillis = millisSince(start);
    assertTrue(signedMillis >= 950 && signedMillis < 2_500, "+1: TIMED_OUT after " + signedMillis + " ms");
    assertTrue(trailingMillis >= 950 && trailingMillis < 2_500, "1x: TIMED_OUT after " + trailingMillis + " ms");
  }

  @Test
  void noNumberOrTwoToThe32TimesOutAtOnce() {
    TestClient worker = connect();
    long start = System.nanoTime();
    worker.send("reserve-with-timeout ").expect("TIMED_OUT");
    worker.send("reserve-with-timeout 4294967296").expect("TIMED_OUT");
    long millis = millisSince(start);
    assertTrue(millis < 500, "both TIMED_OUT after " + millis + " ms");
  }

  @Test
  void onlyANumberBeyondALongIsBadFormat() {
    TestClient worker = connect();
    worker.send("reserve-with-timeout 9223372036854775808").expect("BAD_FORMAT");
    worker.send("reserve-with-timeout -9223372036854775809").expect("BAD_FORMAT");
    worker.send("reserve-with-timeout -9223372036854775808").expect("TIMED_OUT");
    assertEquals("1", worker.stats("stats").get("cmd-reserve-with-timeout"));
  }

  private static long millisSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }
}
