package io.github.vertxbeanstalkd.replication.shipping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.cluster.Waits;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A standby's full copy, streamed (real servers with their binlogs, the real Shipper and Follower
 * in one JVM): a standby that reads slowly is sent no more than its window while changes go on,
 * and a standby that stops in the middle of a copy starts it over and ends with the primary's jobs.
 */
class StreamedCopyTest {
  /** 2,400 jobs of 8 KiB: a copy of about 20 slices. */
  private static final int JOBS = 2_400;
  private static final byte[] BODY = new byte[8 * 1024];
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
  void aStandbyThatReadsSlowlyIsSentNoMoreThanItsWindowAndGetsEveryJob() throws Exception {
    pair = new ShippingPair(dir).startPrimary().startStandbyServer();
    long lastId = putJobs(pair.primaryPort(), JOBS);
    pair.readSlowly(15);
    pair.follow();
    // The copy is under way; changes go on meanwhile, each one through the same window.
    Waits.until(() -> pair.onLink(l -> l.copiedJobs > 0 ? l : null), WAIT_MILLIS, () -> "no copy started");
    lastId = Math.max(lastId, churn(pair.primaryPort(), lastId, 600, new Random(3)));
    Waits.until(() -> pair.isFollowing() ? true : null, WAIT_MILLIS, () -> "the copy never completed");
    long peakInFlight = pair.onLink(l -> l.peakInFlightBytes);
    long peakQueued = pair.onLink(l -> l.peakQueuedBytes);
    long copy = pair.onLink(l -> l.copy);
    System.out.println("StreamedCopyTest: slow standby: at most " + peakInFlight + " bytes in flight, " + peakQueued
        + " waiting");
    assertEquals(1, copy, "the standby was dropped and copied again");
    // A batch leaves while the window has room: it may pass the window by one batch (a slice).
    assertTrue(peakInFlight <= Shipper.WINDOW_BYTES + Shipper.SLICE_BYTES + BODY.length + 1024,
        "bytes in flight: " + peakInFlight);
    assertTrue(peakQueued <= Shipper.WINDOW_BYTES + Shipper.SLICE_BYTES + BODY.length + 1024,
        "bytes waiting for the standby: " + peakQueued);
    pair.readSlowly(0);
    long last = lastId;
    Waits.until(() -> caughtUp(last), WAIT_MILLIS, () -> "the standby never held the primary's jobs");
    assertEquals(ShippingPair.jobs(pair.primaryPort(), lastId), ShippingPair.jobs(pair.standbyPort(), lastId));
  }

  @Test
  void aStandbyThatStopsInTheMiddleOfACopyStartsOverAndEndsWithThePrimarysJobs() throws Exception {
    pair = new ShippingPair(dir).startPrimary().startStandbyServer();
    long lastId = putJobs(pair.primaryPort(), JOBS);
    pair.readSlowly(15);
    pair.follow();
    Waits.until(() -> jobCount(pair.standbyPort()) > 0 ? true : null, WAIT_MILLIS, () -> "no slice applied");
    assertEquals(StandbyLink.State.COPYING, pair.onLink(l -> l.state), "the copy was over before the stop");
    pair.killStandby();
    // Changes while it is away: deletes of jobs it holds, puts it never saw.
    lastId = Math.max(lastId, churn(pair.primaryPort(), lastId, 400, new Random(5)));
    pair.readSlowly(0);
    pair.startStandbyServer();
    long held = jobCount(pair.standbyPort());
    assertTrue(held > 0 && held < JOBS, "the standby came back with " + held + " jobs of a partial copy");
    pair.follow();
    long last = lastId;
    Waits.until(() -> pair.isFollowing() ? true : null, WAIT_MILLIS, () -> "the second copy never completed");
    Waits.until(() -> caughtUp(last), WAIT_MILLIS, () -> "the standby never held the primary's jobs");
    assertEquals(ShippingPair.jobs(pair.primaryPort(), lastId), ShippingPair.jobs(pair.standbyPort(), lastId));
  }

  /** True once the standby holds what the primary does (same jobs, same states), else null. */
  private Boolean caughtUp(long lastId) {
    return ShippingPair.jobs(pair.primaryPort(), lastId).equals(ShippingPair.jobs(pair.standbyPort(), lastId))
        ? true : null;
  }

  /** Puts {@code count} jobs of 8 KiB in tube "copy", pipelined; the last id. */
  private static long putJobs(int port, int count) throws Exception {
    Arrays.fill(BODY, (byte) 'x');
    long last = 0;
    try (TestClient c = TestClient.open(port, 10_000)) {
      c.send("use copy").expect("USING copy");
      for (int from = 0; from < count; from += 100) {
        int n = Math.min(100, count - from);
        for (int i = 0; i < n; i++) {
          c.sendPut(from + i, 0, 60, BODY);
        }
        for (int i = 0; i < n; i++) {
          String reply = c.readLine();
          assertTrue(reply.startsWith("INSERTED "), reply);
          last = Long.parseLong(reply.substring("INSERTED ".length()));
        }
      }
    }
    return last;
  }

  /**
   * {@code steps} random commands on the primary: small puts, deletes, reserves with releases
   * (some delayed) and buries, and kicks; the highest id put.
   */
  private static long churn(int port, long lastId, int steps, Random random) throws Exception {
    long last = lastId;
    try (TestClient c = TestClient.open(port, 10_000)) {
      c.send("use copy").expect("USING copy");
      c.send("watch copy").readLine();
      for (int i = 0; i < steps; i++) {
        long id = 1 + random.nextInt((int) last);
        switch (random.nextInt(5)) {
          case 0 -> {
            String reply = c.sendPut(random.nextInt(10), 0, 60, ("churn-" + i).getBytes(StandardCharsets.US_ASCII))
                .readLine();
            last = Long.parseLong(reply.substring("INSERTED ".length()));
          }
          case 1 -> c.call("delete " + id);
          case 2 -> {
            String reply = c.call("reserve-job " + id);
            if (reply.startsWith("RESERVED ")) {
              c.readBody(reply);
              c.call(random.nextBoolean() ? "release " + id + " 7 " + (random.nextBoolean() ? 0 : 120) : "bury " + id + " 3");
            }
          }
          case 3 -> c.call("kick-job " + id);
          default -> {
            String reply = c.call("reserve-with-timeout 0");
            if (reply.startsWith("RESERVED ")) {
              c.readBody(reply);
              long reserved = Long.parseLong(reply.split(" ")[1]);
              c.call("release " + reserved + " 5 0");
            }
          }
        }
      }
    }
    return last;
  }

  private static long jobCount(int port) {
    try (TestClient c = TestClient.open(port, 10_000)) {
      Map<String, String> stats = c.stats("stats");
      return Long.parseLong(stats.get("current-jobs-ready")) + Long.parseLong(stats.get("current-jobs-delayed"))
          + Long.parseLong(stats.get("current-jobs-buried")) + Long.parseLong(stats.get("current-jobs-reserved"));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
