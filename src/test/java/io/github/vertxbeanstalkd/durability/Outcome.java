package io.github.vertxbeanstalkd.durability;

/**
 * What a job may look like after a restart: absent, or present with a priority and a state
 * (reserved jobs come back ready, FORMAT.md). A delayed job's wall-clock deadline is known only
 * within bounds: from when the change was sent to when it was acknowledged (or the crash).
 */
record Outcome(boolean exists, long pri, String state, long delayMillis, long readyAtLowMillis,
    long readyAtHighMillis) {
  static final String READY = "ready";
  static final String DELAYED = "delayed";
  static final String BURIED = "buried";
  /** Timer granularity, second-rounded time-left and a restart in between. */
  static final long SLACK_MILLIS = 2000;
  static final Outcome ABSENT = new Outcome(false, 0, "absent", 0, 0, 0);

  static Outcome ready(long pri) {
    return new Outcome(true, pri, READY, 0, 0, 0);
  }

  static Outcome buried(long pri) {
    return new Outcome(true, pri, BURIED, 0, 0, 0);
  }

  /** Delayed by a change sent at {@code sentMillis} and not yet acknowledged. */
  static Outcome delayed(long pri, long delayMillis, long sentMillis) {
    return new Outcome(true, pri, DELAYED, delayMillis, sentMillis + delayMillis, Long.MAX_VALUE);
  }

  /** As observed: a deadline between the two bounds. */
  static Outcome delayedBetween(long pri, long lowMillis, long highMillis) {
    return new Outcome(true, pri, DELAYED, 0, lowMillis, highMillis);
  }

  /** The same, acknowledged at {@code ackMillis}: the deadline is now bounded from above. */
  Outcome acknowledgedAt(long ackMillis) {
    return state.equals(DELAYED) && readyAtHighMillis == Long.MAX_VALUE
        ? new Outcome(true, pri, DELAYED, delayMillis, readyAtLowMillis, ackMillis + delayMillis)
        : this;
  }

  /**
   * Whether {@code seen} (observed between {@code seenLowMillis} and {@code seenHighMillis}) is this
   * outcome; a change never acknowledged was made at the latest when the server died.
   */
  boolean admits(Outcome seen, long seenLowMillis, long crashMillis) {
    if (!exists || !seen.exists) {
      return exists == seen.exists;
    }
    if (pri != seen.pri) {
      return false;
    }
    if (!state.equals(DELAYED)) {
      return state.equals(seen.state);
    }
    long high = readyAtHighMillis == Long.MAX_VALUE ? crashMillis + delayMillis : readyAtHighMillis;
    if (seen.state.equals(READY)) {
      // Ready only once the deadline may have passed.
      return seenLowMillis + SLACK_MILLIS >= readyAtLowMillis;
    }
    return seen.state.equals(DELAYED)
        && seen.readyAtHighMillis + SLACK_MILLIS >= readyAtLowMillis
        && seen.readyAtLowMillis <= high + SLACK_MILLIS;
  }

  @Override
  public String toString() {
    if (!exists) {
      return "absent";
    }
    return state + " pri " + pri + (state.equals(DELAYED)
        ? " ready in [" + readyAtLowMillis + ", " + (readyAtHighMillis == Long.MAX_VALUE ? "crash" : readyAtHighMillis)
            + "]+" + delayMillis : "");
  }
}
