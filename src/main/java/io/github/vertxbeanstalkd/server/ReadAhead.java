package io.github.vertxbeanstalkd.server;

/**
 * The input a TCP front's connections have read ahead of the batch they wait on, counted together.
 * Each may read ahead {@link Connection#INPUT_LIMIT_BYTES} while the total is under the limit; past
 * it, a connection with a batch out reads nothing more until that batch is answered, and gathers
 * smaller batches, so that a thousand clients pipelining without reading hold a read each, not
 * 64 KiB and a thousand commands as objects each. Nobody is closed for it: it only slows pipelining
 * down. One per front verticle, used on its thread only.
 */
final class ReadAhead {
  /** The default limit's share of the heap. */
  static final double HEAP_SHARE = 1.0 / 16;
  /** A batch's commands while the limit is passed (otherwise {@link Connection#MAX_BATCH_COMMANDS}). */
  static final int PRESSED_BATCH_COMMANDS = 64;

  private final long limitBytes;
  private long totalBytes;

  ReadAhead() {
    this((long) (Runtime.getRuntime().maxMemory() * HEAP_SHARE));
  }

  ReadAhead(long limitBytes) {
    this.limitBytes = limitBytes;
  }

  /** A connection held {@code before} bytes of input and now holds {@code after}. */
  void changed(long before, long after) {
    totalBytes += after - before;
  }

  boolean isPassed() {
    return totalBytes > limitBytes;
  }

  /** What a connection waiting on a batch may hold before it stops reading. */
  long allowedBytes() {
    return isPassed() ? 0 : Connection.INPUT_LIMIT_BYTES;
  }

  /** Commands a batch may gather now. */
  int batchCommands() {
    return isPassed() ? PRESSED_BATCH_COMMANDS : Connection.MAX_BATCH_COMMANDS;
  }
}
