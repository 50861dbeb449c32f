package io.github.vertxbeanstalkd.http;

import java.util.List;

/**
 * Where the server is in its life, for /healthz and /readyz: replaying its binlog, serving, or
 * stopping. Written by whoever deploys the server, read by the HTTP front; one volatile field.
 */
public final class Readiness {
  /** The phases, in order. */
  public enum Phase { REPLAYING, SERVING, STOPPING }

  private volatile Phase phase = Phase.REPLAYING;
  private volatile List<String> listeners = List.of();

  public Phase phase() {
    return phase;
  }

  /**
   * The protocol listeners are up and the binlog is replayed; {@code listeners} names each of them
   * ("127.0.0.1:11300", "[::1]:11300", "unix:/run/beanstalkd.sock (TLS)"), empty for the event bus only.
   */
  public void serving(List<String> listeners) {
    this.listeners = List.copyOf(listeners);
    this.phase = Phase.SERVING;
  }

  public void stopping() {
    this.phase = Phase.STOPPING;
  }

  /** Every protocol listener, as {@link #serving} named them. */
  public List<String> listeners() {
    return listeners;
  }

  /** Where the protocol is served, in one phrase. */
  public String listening() {
    return listeners.isEmpty() ? "the event bus only" : String.join(" and ", listeners);
  }
}
