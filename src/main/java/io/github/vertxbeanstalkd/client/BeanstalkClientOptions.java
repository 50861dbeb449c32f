package io.github.vertxbeanstalkd.client;

import java.util.UUID;

/**
 * Where a {@link BeanstalkClient} sends (the server's event-bus address), the session its
 * reserved jobs belong to, how long a request may take, how much longer than its own timeout a
 * reserve may take before the client gives up on the reply, and for how long after a request
 * finds the queue unreachable (a failover) the client keeps sending it again where that is safe.
 *
 * @see <a href="{@docRoot}/../spec/EVENTBUS.html">EVENTBUS.md</a>
 */
public record BeanstalkClientOptions(String address, String session, long requestTimeoutMillis,
    long reserveMarginMillis, long failoverRetryMillis) {

  /**
   * The default address, a new random session, Vert.x's 30 s request timeout, a 10 s reserve
   * margin, and 10 s of retries after the queue is found unreachable.
   */
  public BeanstalkClientOptions() {
    this(DEFAULT_ADDRESS, UUID.randomUUID().toString(), 30_000, 10_000, 10_000);
  }

  /** Options with the default 10 s of failover retries. */
  public BeanstalkClientOptions(String address, String session, long requestTimeoutMillis, long reserveMarginMillis) {
    this(address, session, requestTimeoutMillis, reserveMarginMillis, 10_000);
  }

  /** EVENTBUS.md: the server's default address. */
  public static final String DEFAULT_ADDRESS = "beanstalkd";

  public BeanstalkClientOptions withAddress(String address) {
    return new BeanstalkClientOptions(address, session, requestTimeoutMillis, reserveMarginMillis, failoverRetryMillis);
  }

  public BeanstalkClientOptions withSession(String session) {
    return new BeanstalkClientOptions(address, session, requestTimeoutMillis, reserveMarginMillis, failoverRetryMillis);
  }

  public BeanstalkClientOptions withRequestTimeoutMillis(long millis) {
    return new BeanstalkClientOptions(address, session, millis, reserveMarginMillis, failoverRetryMillis);
  }

  public BeanstalkClientOptions withReserveMarginMillis(long millis) {
    return new BeanstalkClientOptions(address, session, requestTimeoutMillis, millis, failoverRetryMillis);
  }

  /** How long to keep retrying once the queue is unreachable; 0 fails such a request at once. */
  public BeanstalkClientOptions withFailoverRetryMillis(long millis) {
    return new BeanstalkClientOptions(address, session, requestTimeoutMillis, reserveMarginMillis, millis);
  }
}
