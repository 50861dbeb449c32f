package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.bus.EngineReplies;

/**
 * What a replicated primary's changes need besides the local binlog before a client hears of them
 * (REPLICATION.md): {@code minAcks} standbys' acknowledgements, and a fresh lease on the group's
 * lock. Owned by the engine and changed only by requests on its thread; the lease is measured on
 * the engine's own monotonic clock, so a primary resumed after a pause (SIGSTOP, a long GC)
 * acknowledges nothing until the lock is confirmed again, whatever ran first after the pause.
 *
 * @see <a href="{@docRoot}/../spec/REPLICATION.html">REPLICATION.md</a>
 */
class ReplicationGate {
  /** Nothing besides the local binlog. */
  static final ReplicationGate LOCAL = new ReplicationGate(null, null) {
    @Override
    long acknowledgedSequence() {
      return Long.MAX_VALUE;
    }

    @Override
    boolean isLeaseFresh() {
      return true;
    }

    @Override
    long answerBeforeNanos() {
      return EngineReplies.NO_DEADLINE;
    }
  };

  private final Clock clock;
  /** The sequence of the latest change logged. */
  private final java.util.function.LongSupplier lastLogged;
  /** The highest sequence the standbys (or, when allowed, the primary alone) acknowledged. */
  private long acknowledged;
  /** Until when the lock is known held, on {@link #clock}. */
  private long leaseUntilNanos = Long.MIN_VALUE;
  /**
   * What was acknowledgeable when the lease was last seen fresh, bounded by what was logged then:
   * while the lease is stale nothing beyond it is acknowledged, not even a change logged alone.
   */
  private long grantedWhileFresh;
  private boolean acceptsChanges = true;

  ReplicationGate(Clock clock, java.util.function.LongSupplier lastLogged) {
    this.clock = clock;
    this.lastLogged = lastLogged;
  }

  long acknowledgedSequence() {
    if (clock.nanos() < leaseUntilNanos) {
      grantedWhileFresh = Math.min(acknowledged, lastLogged.getAsLong());
      return acknowledged;
    }
    return Math.min(acknowledged, grantedWhileFresh);
  }

  boolean acceptsChanges() {
    return acceptsChanges;
  }

  /**
   * Whether this primary may answer at all: a reply that logs nothing (a reserve handing out a
   * job, a peek, stats) also tells a client what the queue holds. A primary resumed after a pause
   * that found a job for a reserve waiting since before it would otherwise hand out a job the new
   * primary may have deleted meanwhile (the SIGSTOP kill test: a deleted job reserved again 3 s
   * after its delete); now that reply waits for the lease, and turns INTERNAL_ERROR when the node
   * steps down.
   */
  boolean isLeaseFresh() {
    return clock.nanos() < leaseUntilNanos;
  }

  /**
   * When (System.nanoTime) the lease runs out, for the fronts that write this turn's replies: a
   * reply that reaches its front later is not sent (the process stood still in between).
   */
  long answerBeforeNanos() {
    if (leaseUntilNanos == Long.MIN_VALUE) {
      return System.nanoTime() - 1;
    }
    return System.nanoTime() + (leaseUntilNanos - clock.nanos());
  }

  /**
   * What may be acknowledged now, as the shipper computed it: it can go down as well as up. A
   * primary that served alone (whenTooFewStandbys "serve", Long.MAX_VALUE) waits for its standbys
   * again as soon as they are back, instead of acknowledging alone for the rest of its term.
   */
  void acknowledge(long sequence) {
    acknowledged = sequence;
  }

  /** The lock was confirmed: {@code remainingNanos} of its lease are left now, on the engine's clock. */
  void renewLease(long remainingNanos) {
    if (remainingNanos > 0) {
      leaseUntilNanos = Math.max(leaseUntilNanos, clock.nanos() + remainingNanos);
    }
  }

  void acceptChanges(boolean accepts) {
    acceptsChanges = accepts;
  }

  /**
   * No longer primary: nothing more is acknowledged and changes are refused, whatever a client
   * still sends before its connection closes; a promotion brings a new gate.
   */
  void fence() {
    leaseUntilNanos = Long.MIN_VALUE;
    acceptsChanges = false;
  }
}
