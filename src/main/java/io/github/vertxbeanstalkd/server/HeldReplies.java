package io.github.vertxbeanstalkd.server;

import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replies a TCP front holds for clients that do not read them, counted together against one
 * limit: past it, the connection holding the most is closed, so that clients that stop reading
 * cannot together fill the heap (each one alone is bounded by a batch). One per front verticle,
 * used on its thread only.
 */
final class HeldReplies {
  /** A connection that can be closed to give its replies' memory back. */
  interface Holder {
    void closeForHoldingReplies();
  }

  private static final Logger log = LoggerFactory.getLogger(HeldReplies.class);
  private static final long LOG_INTERVAL_NANOS = 10_000_000_000L;
  /** The default limit's share of the heap: the rest is the server's own and its connections'. */
  static final double HEAP_SHARE = 0.25;

  private final long limitBytes;
  private final Map<Holder, Long> bytesByHolder = new HashMap<>();
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
   * {@code holder} now holds {@code bytes} of replies its client has not read (0 when it holds
   * none, or is closed). Closes the largest holders, this one included, while the total is over the
   * limit.
   */
  void hold(Holder holder, long bytes) {
    Long before = bytes == 0 ? bytesByHolder.remove(holder) : bytesByHolder.put(holder, bytes);
    heldBytes += bytes - (before == null ? 0 : before);
    while (heldBytes > limitBytes && !bytesByHolder.isEmpty()) {
      Holder largest = null;
      long most = -1;
      // A scan, but only past the limit, which well-behaved clients never reach.
      for (Map.Entry<Holder, Long> e : bytesByHolder.entrySet()) {
        if (e.getValue() > most) {
          most = e.getValue();
          largest = e.getKey();
        }
      }
      heldBytes -= bytesByHolder.remove(largest);
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
      log.warn("closed a connection that held {} bytes (replies it did not read, and what it sent meanwhile): clients that do not read held "
          + "more than {} bytes together ({} closed so far)", bytes, limitBytes, closedConnections);
    }
  }
}
