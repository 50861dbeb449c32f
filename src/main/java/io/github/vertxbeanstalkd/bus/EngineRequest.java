package io.github.vertxbeanstalkd.bus;

import io.github.vertxbeanstalkd.protocol.Command;
import java.util.List;

/** What a transport sends to the queue engine; immutable, passed by reference. */
public sealed interface EngineRequest {

  /** A connection opened; its replies go to {@code connection.replyAddress()}. */
  record Open(ConnectionRef connection) implements EngineRequest {}

  /** Commands to run in order; their replies come back as {@link EngineReply} messages. */
  record Submit(ConnectionRef connection, List<Command> commands) implements EngineRequest {}

  /** The client shut down its sending side: a blocked reserve ends with TIMED_OUT. */
  record InputEnded(ConnectionRef connection) implements EngineRequest {}

  /** The connection is gone. */
  record Close(ConnectionRef connection) implements EngineRequest {}

  /**
   * Everything one transport had to say during one event-loop turn, in order: one event-bus
   * message for many connections' commands instead of one each.
   */
  record Batch(List<EngineRequest> requests) implements EngineRequest {}

  /** Enter drain mode (what SIGUSR1 does). */
  record Drain() implements EngineRequest {}
}
