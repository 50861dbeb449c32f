package io.github.vertxbeanstalkd.bus;

import java.util.UUID;

/**
 * The local event-bus addresses of one server instance's engine and fronts. Each instance has its
 * own, so several servers can be deployed into one Vert.x; none of them crosses the cluster.
 */
public record EngineAddress(String requests, String repliesPrefix) {
  /**
   * Under Vert.x's own prefix for internal addresses, as its reply addresses are: Vert.x's metrics
   * leave them out, so every engine turn's two messages cost no meter look-up (measured: a few
   * hundred bytes of garbage per message) and /metrics shows no series labelled with a random id.
   */
  private static final String PREFIX = "__vertx.beanstalkd.";

  /** Fresh addresses for a new server instance. */
  public static EngineAddress unique() {
    String instance = UUID.randomUUID().toString();
    return new EngineAddress(PREFIX + instance + ".engine", PREFIX + instance + ".replies.");
  }

  /** A new reply address for one front of this instance. */
  public String newReplyAddress() {
    return repliesPrefix + UUID.randomUUID();
  }
}
