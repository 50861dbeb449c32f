package io.github.vertxbeanstalkd.client;

import java.util.UUID;

/**
 * Where a {@link BeanstalkClient} sends (the server's event-bus address), the session its
 * reserved jobs belong to, how long a request may take, and how much longer than its own timeout
 * a reserve may take before the client gives up on the reply.
 */
public record BeanstalkClientOptions(String address, String session, long requestTimeoutMillis,
    long reserveMarginMillis) {

  /** The default address, a new random session, Vert.x's 30 s request timeout, a 10 s reserve margin. */
  public BeanstalkClientOptions() {
    this(DEFAULT_ADDRESS, UUID.randomUUID().toString(), 30_000, 10_000);
  }

  /** EVENTBUS.md: the server's default address. */
  public static final String DEFAULT_ADDRESS = "beanstalkd";

  public BeanstalkClientOptions withAddress(String address) {
    return new BeanstalkClientOptions(address, session, requestTimeoutMillis, reserveMarginMillis);
  }

  public BeanstalkClientOptions withSession(String session) {
    return new BeanstalkClientOptions(address, session, requestTimeoutMillis, reserveMarginMillis);
  }

  public BeanstalkClientOptions withRequestTimeoutMillis(long millis) {
    return new BeanstalkClientOptions(address, session, millis, reserveMarginMillis);
  }

  public BeanstalkClientOptions withReserveMarginMillis(long millis) {
    return new BeanstalkClientOptions(address, session, requestTimeoutMillis, millis);
  }
}
