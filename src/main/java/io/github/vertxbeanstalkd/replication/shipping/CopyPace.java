package io.github.vertxbeanstalkd.replication.shipping;

/**
 * How many copy batches a primary may have in flight to its copying standbys, and when it must
 * send none: a full copy yields to the standbys that follow. Clients' changes wait for those
 * standbys' acknowledgements (minAcks), so a copy that lengthens their round trips slows every
 * put; where the time goes (the copying standby's apply on a core the others share, the primary's
 * engine framing slices, the sockets) this rule need not know, it watches the round trips.
 *
 * <p>A following standby's round trip during which no copy batch was out is the base: what the
 * live stream takes now, load and all. One that overlapped copy traffic and took more than a third
 * longer than the base (plus a little slack for the clock's jitter) halves the copy batches
 * allowed in flight and holds the copy for that round trip's length, at most {@link #MAX_HOLD_NANOS}:
 * the next round trip goes alone and measures the base again, which also ends the hold. One within
 * that allows one more batch, up to the maximum. With no following standby, or none sending, the
 * copy goes at full speed. A copy is never held while too much waits for its standby (the changes
 * logged meanwhile queue behind its slices, and a standby whose queue overflows is dropped and
 * copied again): past {@code mustSendBytes} it sends as if nothing followed.
 */
final class CopyPace {
  /** The longest hold: a copy goes on, however slow the live round trips are. */
  static final long MAX_HOLD_NANOS = 100_000_000L;
  /** Round trips within this much of each other count as the same (timer and scheduler jitter). */
  static final long SLACK_NANOS = 500_000L;
  private final int maxInFlight;
  private final long mustSendBytes;
  private int inFlightAllowed;
  /** The last live round trip that went without copy traffic; -1 before the first. */
  private long baseNanos = -1;
  private boolean isHolding;
  private long holdUntilNanos;
  private long holds;

  /**
   * @param maxInFlight copy batches a standby may have in flight when nothing follows
   * @param mustSendBytes bytes waiting for a copying standby past which its copy is never held
   */
  CopyPace(int maxInFlight, long mustSendBytes) {
    this.maxInFlight = maxInFlight;
    this.mustSendBytes = mustSendBytes;
    this.inFlightAllowed = maxInFlight;
  }

  /**
   * A following standby acknowledged a live batch at {@code ackedNanos} after {@code roundTripNanos};
   * {@code overlappedCopy}: some copy batch was in flight, or was sent, while it was out.
   */
  void onLiveAck(long ackedNanos, long roundTripNanos, boolean overlappedCopy) {
    if (!overlappedCopy) {
      baseNanos = roundTripNanos;
      isHolding = false;
      return;
    }
    if (baseNanos < 0) {
      return;
    }
    if (roundTripNanos > allowedNanos()) {
      inFlightAllowed = Math.max(1, inFlightAllowed / 2);
      long until = ackedNanos + Math.min(roundTripNanos, MAX_HOLD_NANOS);
      if (!isHolding || ackedNanos - holdUntilNanos >= 0) {
        holds++;
        holdUntilNanos = until;
      } else if (until - holdUntilNanos > 0) {
        holdUntilNanos = until;
      }
      isHolding = true;
    } else if (inFlightAllowed < maxInFlight) {
      inFlightAllowed++;
    }
  }

  /** The longest live round trip that copy traffic may make, or -1 while no base is known. */
  long allowedNanos() {
    return baseNanos < 0 ? -1 : baseNanos + baseNanos / 3 + SLACK_NANOS;
  }

  /** Whether a copying standby with {@code copyInFlight} copy batches out and {@code waitingBytes} queued may get another now. */
  boolean maySend(long nowNanos, int copyInFlight, long waitingBytes) {
    if (waitingBytes >= mustSendBytes) {
      return copyInFlight < maxInFlight;
    }
    if (isHolding(nowNanos)) {
      return false;
    }
    return copyInFlight < inFlightAllowed;
  }

  /** Whether the copy is held at {@code nowNanos}; then until {@link #holdUntilNanos()}. */
  boolean isHolding(long nowNanos) {
    return isHolding && nowNanos - holdUntilNanos < 0;
  }

  long holdUntilNanos() {
    return holdUntilNanos;
  }

  /** Copy batches allowed in flight per standby now. */
  int inFlightAllowed() {
    return inFlightAllowed;
  }

  /** Holds so far: how often a copy had to yield, for the copy's log line. */
  long holds() {
    return holds;
  }
}
