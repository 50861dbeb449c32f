package io.github.vertxbeanstalkd.durability;

import java.util.ArrayList;
import java.util.List;

/**
 * What the clients were told about one job: its put, the state after its last acknowledged change,
 * and the change in flight when the server died, if any. Guarded by its own monitor: a client
 * holds it from sending a change until it has recorded the reply, so changes are recorded in the
 * order the server made them.
 */
final class JobFacts {
  final long id;
  final SentPut put;
  /** INSERTED arrived, the job was handed out, or a later change of it was acknowledged. */
  boolean isConfirmed;
  Outcome durable;
  /** The change sent whose reply never came; null when none. */
  Outcome pending;

  private final Outcome initial;

  JobFacts(long id, SentPut put) {
    this.id = id;
    this.put = put;
    this.initial = put.outcome();
    this.durable = initial;
  }

  /** INSERTED: from now on the job must survive; a delayed put's deadline is bounded now. */
  void inserted(long ackMillis) {
    if (durable == initial) {
      durable = initial.acknowledgedAt(ackMillis);
    }
    isConfirmed = true;
  }

  /**
   * The job was handed out (RESERVED at {@code nowMillis}). The engine sends that only once every
   * record before it is durable, so the put is; and so is a change whose reply never came (a
   * kick-job of the buried job, say, cut off by the crash): the job was reservable only after it.
   */
  void handedOut(long nowMillis) {
    if (pending != null) {
      acknowledge(nowMillis);
    }
    isConfirmed = true;
  }

  void send(Outcome change) {
    pending = change;
  }

  /** The reply to the pending change came: it is durable now (the reply waits for the log). */
  void acknowledge(long ackMillis) {
    durable = pending.acknowledgedAt(ackMillis);
    pending = null;
    isConfirmed = true;
  }

  /** Every state the job may be found in after a crash. */
  List<Outcome> allowed() {
    List<Outcome> all = new ArrayList<>(3);
    all.add(durable);
    if (pending != null) {
      all.add(pending);
    }
    if (!isConfirmed) {
      all.add(Outcome.ABSENT);
    }
    return all;
  }

  /** A restart showed this: it is the truth from now on. */
  void settle(Outcome seen) {
    durable = seen;
    pending = null;
    isConfirmed = true;
  }
}
