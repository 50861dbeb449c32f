package io.github.vertxbeanstalkd.bus;

/**
 * Names one event-bus session: its front's reply address and the name the client chose. A null
 * name is the front's anonymous session, which runs the requests that carry no session.
 */
public record BusSessionRef(String replyAddress, String name) implements ClientRef {
  public boolean isAnonymous() {
    return name == null;
  }
}
