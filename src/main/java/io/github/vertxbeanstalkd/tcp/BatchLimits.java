package io.github.vertxbeanstalkd.tcp;

/**
 * How much one batch of a connection's commands may hold: it goes to the engine whole, and all
 * its replies are made before the front counts any of them (see {@link Connection}).
 */
final class BatchLimits {
  static final int MAX_BATCH_COMMANDS = 1024;
  /**
   * Bodies one batch may bring back, counted at the largest job size: reserves and peeks answer
   * with a copy of a body each, so a client pipelining peeks of large jobs without reading its
   * replies holds at most this much, not a thousand bodies.
   */
  static final long MAX_BATCH_BODY_BYTES = 4L * 1024 * 1024;
  /**
   * Commands answered with a document (stats, stats-tube, stats-job, list-tubes,
   * list-tubes-watched) one batch may hold. Each is a few bytes in and kilobytes out, built as
   * objects on the engine's turn before any front counts them as held: at a thousand a batch, 64
   * connections that pipelined stats and list-tubes without reading had about 65,000 replies made
   * at once, and a server with -Xmx128m ended with OutOfMemoryError
   * (src/test/scripts/hostile_memory.py, its slow phase, in a 512 MiB container).
   */
  static final int MAX_BATCH_DOCUMENTS = 32;
  /** A command read and not yet answered, on the heap: the command, its places in the batch and the engine's queue. */
  static final long COMMAND_HEAP_BYTES = 64;

  private BatchLimits() {}

  /** Reserves and peeks one batch may hold, for jobs of up to {@code maxJobSizeBytes}. */
  static int bodiesPerBatch(long maxJobSizeBytes) {
    return (int) Math.max(1, MAX_BATCH_BODY_BYTES / Math.max(1, maxJobSizeBytes));
  }
}
