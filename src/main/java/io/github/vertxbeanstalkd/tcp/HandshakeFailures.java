package io.github.vertxbeanstalkd.tcp;

import java.nio.channels.ClosedChannelException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs TLS handshakes that failed (an old protocol, no or a foreign client certificate, a client
 * that does not trust ours, plain text): the first at once, then one line per ten seconds with a count.
 */
final class HandshakeFailures {
  private static final Logger log = LoggerFactory.getLogger(HandshakeFailures.class);
  private static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(10);
  private static final int MAX_REASON_CHARS = 120;

  private long lastLoggedNanos;
  private boolean hasLogged;
  private long unlogged;

  void failed(Throwable cause) {
    if (cause instanceof ClosedChannelException) {
      // The client left before its handshake, as a port probe does: nothing was refused.
      log.debug("TLS: a client closed its connection before the handshake");
      return;
    }
    unlogged++;
    long now = System.nanoTime();
    if (hasLogged && now - lastLoggedNanos < QUIET_NANOS) {
      return;
    }
    log.warn("TLS: {} handshake(s) refused, the latest: {}", unlogged, reason(cause));
    hasLogged = true;
    lastLoggedNanos = now;
    unlogged = 0;
  }

  private static String reason(Throwable cause) {
    Throwable root = cause;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String reason = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    // Netty quotes a plain-text client's bytes in hex: enough to recognise them, not a whole buffer.
    return reason.length() <= MAX_REASON_CHARS ? reason : reason.substring(0, MAX_REASON_CHARS) + "...";
  }
}
