package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.Reply;

/**
 * Where a flush of the session's used tube stopped: the states it takes, the jobs deleted so far,
 * and how many it may delete in all (what those states held when it started, so that puts into
 * the tube while it runs cannot keep it going for ever).
 */
record FlushProgress(Command.Flush flush, long deletedSoFar, long limit) implements Continued {
  @Override
  public Reply continueIn(CommandHandlers handlers, Session s) {
    return handlers.flush(s, this);
  }

  boolean isDone() {
    return deletedSoFar >= limit;
  }
}
