package io.github.vertxbeanstalkd.bus;

import java.util.UUID;

/**
 * The local event-bus addresses of one server instance's engine and fronts. Each instance has its
 * own, so several servers can be deployed into one Vert.x; none of them crosses the cluster.
 */
public record EngineAddress(String requests, String repliesPrefix) {
  private static final String PREFIX = "beanstalkd.internal.";

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
