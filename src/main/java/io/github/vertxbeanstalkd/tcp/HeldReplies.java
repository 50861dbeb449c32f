package io.github.vertxbeanstalkd.tcp;

import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replies a TCP front holds for clients that do not read them, counted together against one
 * limit: past it, the connection holding the most replies is closed, so that clients that stop reading
 * cannot together fill the heap (each one alone is bounded by a batch). One per front verticle,
 * used on its thread only.
 */
final class HeldReplies {
  /** A connection that can be closed to give its replies' memory back. */
  interface Holder {
    /** What it holds now: what it last told {@link #hold}. */
    long heldBytes();

    /**
     * Of it, the replies its client has not taken: who is closed first. Its input counts in
     * {@link #heldBytes} but does not choose it: a client stopped in the middle of a put's body
     * by the read-ahead limit cannot read its replies until its write is taken, and with its
     * bodies it was the largest holder and was closed, not the clients that do not read (the 512
     * MiB container's hostile run, its fill phase beside 1,000 clients pipelining peeks).
     */
    long repliesBytes();

    /** Closes it; it holds nothing afterwards, and need not tell {@link #hold} so. */
    void closeForHoldingReplies();
  }

  private static final Logger log = LoggerFactory.getLogger(HeldReplies.class);
  private static final long LOG_INTERVAL_NANOS = 10_000_000_000L;
  /** The default limit's share of the heap: the rest is the server's own and its connections'. */
  static final double HEAP_SHARE = 0.25;

  private final long limitBytes;
  /** The holders that hold something; each knows how much, so no count is boxed per change. */
  private final Set<Holder> holders = new HashSet<>();
  private long heldBytes;
  private long closedConnections;
  private long lastLogNanos = System.nanoTime() - LOG_INTERVAL_NANOS;

  HeldReplies() {
    this((long) (Runtime.getRuntime().maxMemory() * HEAP_SHARE));
  }

  HeldReplies(long limitBytes) {
    this.limitBytes = limitBytes;
  }

  /**
   * {@code holder} held {@code before} bytes of replies its client has not read, and now holds
   * {@code after} (0 when it holds none, or is closed). Closes the largest holders, this one
   * included, while the total is over the limit.
   */
  void hold(Holder holder, long before, long after) {
    if (after == 0) {
      holders.remove(holder);
    } else if (before == 0) {
      holders.add(holder);
    }
    heldBytes += after - before;
    while (heldBytes > limitBytes && !holders.isEmpty()) {
      Holder largest = null;
      long mostReplies = -1;
      long most = -1;
      // A scan, but only past the limit, which well-behaved clients never reach.
      for (Holder h : holders) {
        long replies = h.repliesBytes();
        if (replies > mostReplies || replies == mostReplies && h.heldBytes() > most) {
          mostReplies = replies;
          most = h.heldBytes();
          largest = h;
        }
      }
      holders.remove(largest);
      heldBytes -= most;
      closedConnections++;
      logClosed(most);
      largest.closeForHoldingReplies();
    }
  }

  long heldBytes() {
    return heldBytes;
  }

  long limitBytes() {
    return limitBytes;
  }

  long closedConnections() {
    return closedConnections;
  }

  private void logClosed(long bytes) {
    long now = System.nanoTime();
    if (now - lastLogNanos >= LOG_INTERVAL_NANOS) {
      lastLogNanos = now;
      log.warn("closed a connection that held {} bytes (replies it did not read, and what it sent meanwhile): "
          + "clients that do not read held more than {} bytes together ({} closed so far)",
          bytes, limitBytes, closedConnections);
    }
  }
}
