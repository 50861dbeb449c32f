package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.bus.EngineReply;
import io.github.vertxbeanstalkd.bus.SessionKey;
import io.github.vertxbeanstalkd.protocol.Reply;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Collects what the engine delivers, per session, until a test takes it. */
final class RecordingSink implements ReplySink {
  private final Map<SessionKey, List<Reply>> pending = new HashMap<>();
  private final Map<SessionKey, EngineReply> last = new HashMap<>();
  private final List<SessionKey> ended = new ArrayList<>();

  @Override
  public void deliver(EngineReply reply) {
    if (reply.replies().isEmpty() && !reply.hasEnded() && (reply.holdsJobs() || !reply.isComplete())) {
      throw new AssertionError("the engine delivered a notice that says nothing: " + reply);
    }
    pending.computeIfAbsent(reply.key(), k -> new ArrayList<>()).addAll(reply.replies());
    last.put(reply.key(), reply);
    if (reply.hasEnded()) {
      ended.add(reply.key());
    }
  }

  /** The replies delivered to {@code key} since the last take, oldest first. */
  List<Reply> take(SessionKey key) {
    List<Reply> r = pending.remove(key);
    return r == null ? List.of() : r;
  }

  /** The isComplete flag of the last delivery to {@code key}, or null if none. */
  Boolean lastIsComplete(SessionKey key) {
    EngineReply r = last.get(key);
    return r == null ? null : r.isComplete();
  }

  /** The last delivery to {@code key}, or null. */
  EngineReply last(SessionKey key) {
    return last.get(key);
  }

  /** The sessions whose end notice came, in order. */
  List<SessionKey> ended() {
    return ended;
  }
}
