package io.github.vertxbeanstalkd.protocol;

import java.util.concurrent.atomic.AtomicReference;

/**
 * {@link Reply.JobBody} replies and the arrays their bodies are copied into, kept for reuse: one
 * thread (the engine's) takes and fills them, any thread gives them back once it has written their
 * bytes ({@link Reply#release()}).
 *
 * <p>A reply that is never given back is collected like any other object, so a front that keeps
 * its replies, or drops them (a closed connection), costs garbage, not memory. What the pool keeps
 * is bounded by {@link #MAX_POOLED} replies and {@link #MAX_POOLED_ARRAY_BYTES} of arrays.
 */
public final class JobBodyPool {
  /** Replies kept for reuse; more than this many given back at once go to the collector. */
  static final int MAX_POOLED = 1024;
  /** Array bytes kept for reuse; past it, a reply is kept without its array. */
  static final long MAX_POOLED_ARRAY_BYTES = 4L * 1024 * 1024;
  /** The smallest array made, so that bodies of about the same size share arrays. */
  private static final int MIN_ARRAY_BYTES = 64;

  /**
   * What other threads gave back since the taker last looked, newest first: pushed with a CAS,
   * taken whole with one swap, so no node is ever popped alone (no ABA) and nothing is allocated.
   */
  private final AtomicReference<Reply.JobBody> givenBack = new AtomicReference<>();
  /** The taker's own free list: read and written by the taking thread only. */
  private Reply.JobBody free;
  private int freeCount;
  private long freeArrayBytes;

  /**
   * A reply for job {@code id} of {@code tube} with a body of {@code length} bytes: its
   * {@link Reply.JobBody#bodyArray()} holds at least that many, to be filled by the caller before
   * it hands the reply on. Only one thread may take.
   */
  public Reply.JobBody take(String word, long id, String tube, int length) {
    if (free == null) {
      adoptGivenBack();
    }
    Reply.JobBody job = free;
    if (job == null) {
      job = new Reply.JobBody(this);
    } else {
      free = job.next;
      job.next = null;
      freeCount--;
      freeArrayBytes -= job.arrayBytes();
    }
    job.fill(word, id, tube, length, MIN_ARRAY_BYTES);
    return job;
  }

  /** Called by {@link Reply.JobBody#release()}, on any thread. */
  void giveBack(Reply.JobBody job) {
    Reply.JobBody head;
    do {
      head = givenBack.get();
      job.next = head;
    } while (!givenBack.compareAndSet(head, job));
  }

  /** Moves what was given back onto the free list, within its bounds. */
  private void adoptGivenBack() {
    Reply.JobBody job = givenBack.getAndSet(null);
    while (job != null && freeCount < MAX_POOLED) {
      Reply.JobBody next = job.next;
      job.reuse();
      if (freeArrayBytes + job.arrayBytes() > MAX_POOLED_ARRAY_BYTES) {
        job.dropArray();
      }
      freeArrayBytes += job.arrayBytes();
      job.next = free;
      free = job;
      freeCount++;
      job = next;
    }
    // Whatever is left over is unreachable from here on: the collector takes it.
  }

  /** Replies on the free list now (for tests). */
  int freeCount() {
    return freeCount;
  }

  /** Bytes of the arrays on the free list now (for tests). */
  long keptArrayBytes() {
    return freeArrayBytes;
  }
}
