package io.github.vertxbeanstalkd.replication.shipping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A full copy's pace beside the standbys that follow: it yields when it slows their round trips, never for good. */
class CopyPaceTest {
  private static final long MS = 1_000_000L;
  private static final int MAX = 16;
  private static final long MUST_SEND = 16L << 20;
  private final CopyPace pace = new CopyPace(MAX, MUST_SEND);
  private long now = 1_000 * MS;

  @Test
  void withNoStandbyFollowingTheCopyGoesAtFullSpeed() {
    assertTrue(pace.maySend(now, MAX - 1, 0));
    assertFalse(pace.maySend(now, MAX, 0), "never more than the maximum in flight");
  }

  @Test
  void aRoundTripTheCopyMadeSlowHoldsTheCopyForThatLongAndHalvesItsBatches() {
    pace.onLiveAck(now, 3 * MS, false);
    now += 5 * MS;
    pace.onLiveAck(now, 12 * MS, true);
    assertFalse(pace.maySend(now, 0, 0), "held");
    assertFalse(pace.maySend(now + 11 * MS, 0, 0), "held for the slow round trip's length");
    assertTrue(pace.maySend(now + 12 * MS, 0, 0), "the hold ends");
    assertEquals(MAX / 2, pace.inFlightAllowed());
    assertEquals(1, pace.holds());
  }

  @Test
  void aRoundTripWithoutCopyTrafficEndsTheHoldAndSetsTheBase() {
    pace.onLiveAck(now, 3 * MS, false);
    pace.onLiveAck(now, 50 * MS, true);
    assertFalse(pace.maySend(now + MS, 0, 0));
    now += 4 * MS;
    pace.onLiveAck(now, 4 * MS, false);
    assertTrue(pace.maySend(now, 0, 0), "the live stream went alone: the copy may go on");
    assertEquals(4 * MS + 4 * MS / 3 + CopyPace.SLACK_NANOS, pace.allowedNanos());
  }

  @Test
  void roundTripsWithinAThirdOfTheBaseLetTheCopyGrowBackToItsMaximum() {
    pace.onLiveAck(now, 3 * MS, false);
    pace.onLiveAck(now, 30 * MS, true);
    pace.onLiveAck(now, 30 * MS, true);
    pace.onLiveAck(now, 30 * MS, true);
    assertEquals(MAX / 8, pace.inFlightAllowed());
    now += 30 * MS;
    for (int i = 0; i < 2 * MAX; i++) {
      pace.onLiveAck(now, 4 * MS, true);
    }
    assertFalse(pace.isHolding(now));
    assertEquals(MAX, pace.inFlightAllowed());
  }

  @Test
  void theBatchesAllowedNeverFallBelowOne() {
    pace.onLiveAck(now, 3 * MS, false);
    for (int i = 0; i < 10; i++) {
      pace.onLiveAck(now, 30 * MS, true);
    }
    assertEquals(1, pace.inFlightAllowed());
    now += 31 * MS;
    assertTrue(pace.maySend(now, 0, 0));
    assertFalse(pace.maySend(now, 1, 0));
  }

  @Test
  void aHoldLastsAtMostItsBoundHoweverSlowTheRoundTrip() {
    pace.onLiveAck(now, 3 * MS, false);
    pace.onLiveAck(now, 10_000 * MS, true);
    assertFalse(pace.maySend(now + CopyPace.MAX_HOLD_NANOS - 1, 0, 0));
    assertTrue(pace.maySend(now + CopyPace.MAX_HOLD_NANOS, 0, 0));
  }

  @Test
  void aCopyWhoseStandbyHasTooMuchWaitingIsNeverHeld() {
    pace.onLiveAck(now, 3 * MS, false);
    pace.onLiveAck(now, 50 * MS, true);
    assertFalse(pace.maySend(now, 0, MUST_SEND - 1));
    assertTrue(pace.maySend(now, 0, MUST_SEND), "else the changes queued behind its slices overflow");
    assertTrue(pace.maySend(now, MAX - 1, MUST_SEND));
  }

  @Test
  void withoutABaseASlowRoundTripHoldsNothing() {
    pace.onLiveAck(now, 50 * MS, true);
    assertTrue(pace.maySend(now, 0, 0));
    assertEquals(0, pace.holds());
  }
}
