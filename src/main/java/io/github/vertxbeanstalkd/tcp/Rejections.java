package io.github.vertxbeanstalkd.tcp;

import io.vertx.core.net.SocketAddress;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Logs connections refused at the cap: the first at once, then one line per ten seconds with a count. */
final class Rejections {
  private static final Logger log = LoggerFactory.getLogger(Rejections.class);
  private static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(10);

  private long lastLoggedNanos;
  private boolean hasLogged;
  private long unlogged;

  void rejected(int maxConnections, SocketAddress from) {
    unlogged++;
    long now = System.nanoTime();
    if (hasLogged && now - lastLoggedNanos < QUIET_NANOS) {
      return;
    }
    log.warn("maxConnections ({}) reached: closed {} new connection(s) at once, the latest from {}",
        maxConnections, unlogged, from);
    hasLogged = true;
    lastLoggedNanos = now;
    unlogged = 0;
  }
}
