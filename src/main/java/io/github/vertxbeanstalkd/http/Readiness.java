package io.github.vertxbeanstalkd.http;

/**
 * Where the server is in its life, for /healthz and /readyz: replaying its binlog, serving, or
 * stopping. Written by whoever deploys the server, read by the HTTP front; one volatile field.
 */
public final class Readiness {
  /** The phases, in order. */
  public enum Phase { REPLAYING, SERVING, STOPPING }

  private volatile Phase phase = Phase.REPLAYING;
  private volatile String listening = "";

  public Phase phase() {
    return phase;
  }

  /** The protocol listeners are up and the binlog is replayed; {@code listening} says where. */
  public void serving(String listening) {
    this.listening = listening;
    this.phase = Phase.SERVING;
  }

  public void stopping() {
    this.phase = Phase.STOPPING;
  }

  public String listening() {
    return listening;
  }
}
