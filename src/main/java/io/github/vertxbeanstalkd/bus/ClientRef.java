package io.github.vertxbeanstalkd.bus;

/** Names one client of the engine, a TCP connection or an event-bus session, and where its replies go. */
public sealed interface ClientRef permits ConnectionRef, BusSessionRef {
  /** The local event-bus address of the front that serves this client. */
  String replyAddress();
}
