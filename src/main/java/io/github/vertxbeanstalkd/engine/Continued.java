package io.github.vertxbeanstalkd.engine;

/**
 * A command too large for one event-loop turn, stopped where it yielded: queued in its session
 * ahead of the session's other commands, it continues on a later turn, in the same scope.
 */
sealed interface Continued permits KickProgress, FlushProgress {
  /** Runs the next turn's worth; null when it yielded again. */
  io.github.vertxbeanstalkd.protocol.Reply continueIn(CommandHandlers handlers, Session s);
}
