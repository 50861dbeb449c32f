package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.protocol.Reply;
import java.util.List;

/** Where the engine hands finished replies; {@code isComplete} says no submitted command is left. */
@FunctionalInterface
public interface ReplySink {
  void deliver(Session session, List<Reply> replies, boolean isComplete);

  /** An event-bus session was ended; everything it was owed has been delivered before this. */
  default void ended(Session session) {}
}
