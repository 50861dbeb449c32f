package io.github.vertxbeanstalkd.replication;

import io.vertx.core.buffer.Buffer;
import java.util.ArrayDeque;

/**
 * A primary's view of one standby: where its copy stands, the live batches it waits to be sent
 * while the copy runs, what it has acknowledged, and since when an acknowledgement is awaited.
 */
final class StandbyLink {
  /** A live batch held while the copy runs. */
  record Held(long first, long last, long logged, Buffer frames) {}

  enum State { COPYING, LIVE, GONE }

  final String address;
  State state = State.COPYING;
  /** The binlog sequence the copy was taken at: live changes after it follow the copy. */
  long copyAt = -1;
  long[] copyIds;
  int copyCursor;
  final ArrayDeque<Held> held = new ArrayDeque<>();
  long acked;
  /** When each batch still without an acknowledgement was sent (System.nanoTime), oldest first. */
  final java.util.ArrayDeque<Long> unacked = new java.util.ArrayDeque<>();
  long lastSentNanos;
  /** Live batches sent and not yet acknowledged (the copy's and heartbeats are not counted). */
  int liveInFlight;
  /** Changes waiting for the batch in flight to be acknowledged, merged: null when none wait. */
  io.vertx.core.buffer.Buffer pending;
  long pendingFirst;
  long pendingLast;
  long pendingLogged;

  StandbyLink(String address) {
    this.address = address;
  }

  /** Caught up: copied, following, and acknowledging within {@code ackTimeoutNanos}. */
  boolean isCaughtUp(long nowNanos, long ackTimeoutNanos) {
    return state == State.LIVE && (unacked.isEmpty() || nowNanos - unacked.peekFirst() < ackTimeoutNanos);
  }
}
