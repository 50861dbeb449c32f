package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.protocol.Reply;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Collects what the engine delivers, per session, until a test takes it. */
final class RecordingSink implements ReplySink {
  private final Map<Session, List<Reply>> pending = new HashMap<>();
  private final Map<Session, Boolean> lastIsComplete = new HashMap<>();

  @Override
  public void deliver(Session session, List<Reply> replies, boolean isComplete) {
    if (replies.isEmpty()) {
      throw new AssertionError("the engine delivered an empty list of replies");
    }
    pending.computeIfAbsent(session, k -> new ArrayList<>()).addAll(replies);
    lastIsComplete.put(session, isComplete);
  }

  /** The replies delivered to {@code s} since the last take, oldest first. */
  List<Reply> take(Session s) {
    List<Reply> r = pending.remove(s);
    return r == null ? List.of() : r;
  }

  /** The isComplete flag of the last delivery to {@code s}, or null if none. */
  Boolean lastIsComplete(Session s) {
    return lastIsComplete.get(s);
  }
}
