package io.github.vertxbeanstalkd.bus;

import io.github.vertxbeanstalkd.protocol.Command;
import java.util.List;

/** What a transport sends to the queue engine; immutable, passed by reference. */
public sealed interface EngineRequest {

  /** A connection opened; its replies go to {@code connection.replyAddress()}. */
  record Open(ConnectionRef connection) implements EngineRequest {}

  /** Commands to run in order; their replies come back as {@link EngineReply} messages. */
  record Submit(ConnectionRef connection, List<Command> commands) implements EngineRequest {}

  /**
   * A put's line passed its checks and its body is still arriving. BEHAVIOURS.md 4: 1.12 takes the
   * job's id (and counts cmd-put) at this point, so other connections see it taken. No reply.
   */
  record PutLineArrived(ConnectionRef connection, boolean isTooBig) implements EngineRequest {}

  /** The client shut down its sending side: a blocked reserve ends with TIMED_OUT. */
  record InputEnded(ConnectionRef connection) implements EngineRequest {}

  /** A connection over maxConnections was closed at once; only counted. */
  record ConnectionRejected() implements EngineRequest {}

  /** The connection is gone. */
  record Close(ConnectionRef connection) implements EngineRequest {}

  /**
   * Everything one transport had to say during one event-loop turn, in order: one event-bus
   * message for many connections' commands instead of one each.
   */
  record Batch(List<EngineRequest> requests) implements EngineRequest {}

  /**
   * Asks for an {@code EngineSnapshot} (counts per tube, counters) as the reply; it is also
   * published to the engine's observer.
   */
  record Snapshot() implements EngineRequest {}

  /** Enter drain mode (what SIGUSR1 does), or leave it. */
  record Drain(boolean isDraining) implements EngineRequest {}

  /**
   * One event-bus request, run in {@code session} (created on first use) as its next command.
   * The session uses {@code tube} and watches {@code watchTubes} for that command only, without
   * counting cmd-use or cmd-watch; either may be null when the command needs no tube.
   * {@code keepsPriority} makes a bury keep the job's own priority. {@code nodeId} is the sender's
   * cluster node, or null.
   */
  record BusCall(BusSessionRef session, String nodeId, String tube, List<String> watchTubes, Command command,
      boolean keepsPriority) implements EngineRequest {}

  /**
   * An event-bus quit: a reserve the session waits in answers TIMED_OUT, commands queued behind it
   * are dropped, its jobs return to ready, and an ended {@link EngineReply} confirms it.
   */
  record EndSession(BusSessionRef session) implements EngineRequest {}

  /** A cluster node left: every event-bus session that named it ends as by a quit, unconfirmed. */
  record NodeLeft(String nodeId) implements EngineRequest {}
}
