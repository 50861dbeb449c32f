package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.protocol.Reply;

/**
 * Where a kick too large for one event-loop turn stopped: its bound, the jobs kicked so far, and
 * whether it kicks buried jobs (chosen once, at its start) or delayed ones. Queued in the
 * session ahead of its other commands, it continues on a later turn.
 */
record KickProgress(long bound, long kickedSoFar, boolean isBuriedKick) implements Continued {
  @Override
  public Reply continueIn(CommandHandlers handlers, Session s) {
    return handlers.kick(s, this);
  }
}
