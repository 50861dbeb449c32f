package io.github.vertxbeanstalkd.replication.shipping;

import io.vertx.core.buffer.Buffer;
import java.util.ArrayDeque;

/**
 * A primary's view of one standby: the batches waiting for it in the engine's order (copy slices
 * and changes alike), what it has in flight, where its copy stands, and what it has acknowledged.
 */
final class StandbyLink {
  /** Changes as they were shipped: a term's stream of frames from {@code logged - frames.length()} to {@code logged}. */
  record Held(long first, long last, long logged, Buffer frames) {}

  /** A batch waiting for room in the window; LIVE ones are merged when they leave. */
  record Queued(byte kind, long first, long last, long logged, Buffer frames) {}

  enum State { COPYING, LIVE, GONE }

  final String address;
  /** Which copy this is: slices of an earlier subscription of the same standby are told apart by it. */
  final long copy;
  State state = State.COPYING;
  /** Whether the stream's changes go to this standby: from its copy's first slice, or from where it resumed. */
  boolean isStreaming;
  /** The slot the copy's next slice starts at; -1 once its last slice is read. */
  int copyCursor;
  boolean isSliceAsked;
  long copiedJobs;
  /** A rewind: the ids of the jobs the standby's diverged tail touched, to be sent as they are here; null otherwise. */
  long[] refetch;
  /** Of those, how many are not held here (sent as deletes). */
  long refetchedGone;
  long copyStartNanos;
  final ArrayDeque<Queued> queue = new ArrayDeque<>();
  long queuedBytes;
  long inFlightBytes;
  /** Batches sent and not yet acknowledged, heartbeats aside; and of them, the copy's (reset, slices). */
  int inFlightBatches;
  int copyBatchesInFlight;
  /** The most this standby had in flight and waiting, in bytes: what its copy cost the primary's heap. */
  long peakInFlightBytes;
  long peakQueuedBytes;
  /** Every change up to this sequence is applied there (meaningful once it follows: see {@link #isCaughtUp}). */
  long acked;
  /** When each request still without an answer was sent (System.nanoTime), oldest first. */
  final ArrayDeque<Long> unacked = new ArrayDeque<>();
  long lastSentNanos;

  StandbyLink(String address, long copy) {
    this.address = address;
    this.copy = copy;
  }

  void enqueue(Queued q) {
    queue.add(q);
    queuedBytes += q.frames().length();
    peakQueuedBytes = Math.max(peakQueuedBytes, queuedBytes);
  }

  /** Caught up: copied, following, and acknowledging within {@code ackTimeoutNanos}. */
  boolean isCaughtUp(long nowNanos, long ackTimeoutNanos) {
    return state == State.LIVE && (unacked.isEmpty() || nowNanos - unacked.peekFirst() < ackTimeoutNanos);
  }
}
