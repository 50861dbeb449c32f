package io.github.vertxbeanstalkd.bus;

/** Event-bus addresses of the queue engine. Both are local: commands never cross the cluster. */
public final class EngineAddress {
  /** Where transports send {@link EngineRequest}s. */
  public static final String REQUESTS = "beanstalkd.engine";
  /** Prefix of each transport's reply address. */
  public static final String REPLIES_PREFIX = "beanstalkd.replies.";

  private EngineAddress() {}
}
