package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.persistence.Binlog;
import io.github.vertxbeanstalkd.protocol.Reply;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The sessions' replies on their way out: each leaves only once every binlog record appended
 * before it is durable under the fsync policy, so no client sees an effect a crash could take
 * back. Replies wait per session and leave in the order they became ready, also across sessions.
 */
final class DurableReplies {
  private final ReplySink sink;
  private final Binlog binlog;
  /** Told after each delivery, so that a session that is done can be forgotten. */
  private final Consumer<Session> delivered;
  private final ArrayList<Session> dirty = new ArrayList<>();
  /** Sessions whose replies wait for the binlog, oldest first. */
  private final ArrayList<Session> awaitingDurable = new ArrayList<>();

  DurableReplies(ReplySink sink, Binlog binlog, Consumer<Session> delivered) {
    this.sink = sink;
    this.binlog = binlog;
    this.delivered = delivered;
  }

  void add(Session s, Reply r) {
    s.outbox.add(r);
    markDirty(s);
  }

  /** {@code s} has replies, or an end notice, to send once this turn's work is done. */
  void markDirty(Session s) {
    if (!s.isDirty) {
      s.isDirty = true;
      dirty.add(s);
    }
  }

  /** Sends what this turn produced, or holds it until {@code lastSequence} is durable. */
  void flush(long lastSequence) {
    if (!awaitingDurable.isEmpty()) {
      // Older replies first: the binlog may have moved on before its callback reached us.
      onDurable(binlog.durableSequence());
    }
    boolean isDurable = lastSequence <= binlog.durableSequence() || binlog.health() == Binlog.Health.FAILED;
    for (Session s : dirty) {
      s.isDirty = false;
      if (s.isClosed && !s.isEnded) {
        continue;
      }
      if (isDurable && !s.isAwaitingDurable) {
        deliver(s);
      } else {
        s.awaitedSequence = lastSequence;
        if (!s.isAwaitingDurable) {
          s.isAwaitingDurable = true;
          awaitingDurable.add(s);
        }
      }
    }
    dirty.clear();
  }

  /** The binlog made every record up to {@code sequence} durable: their replies may leave, in order. */
  void onDurable(long sequence) {
    int kept = 0;
    for (int i = 0; i < awaitingDurable.size(); i++) {
      Session s = awaitingDurable.get(i);
      if (s.awaitedSequence <= sequence) {
        s.isAwaitingDurable = false;
        deliver(s);
      } else {
        awaitingDurable.set(kept++, s);
      }
    }
    awaitingDurable.subList(kept, awaitingDurable.size()).clear();
  }

  /**
   * The binlog failed for good. Replies that waited for it become INTERNAL_ERROR (one for one, so
   * clients stay in step); from now on nothing waits.
   */
  void onBinlogFailure() {
    for (Session s : awaitingDurable) {
      s.isAwaitingDurable = false;
      List<Reply> failed = new ArrayList<>(s.outbox.size());
      s.outbox.forEach(r -> failed.add(Reply.Word.INTERNAL_ERROR));
      s.outbox = failed;
      deliver(s);
    }
    awaitingDurable.clear();
  }

  private void deliver(Session s) {
    if (s.isClosed && !s.isEnded) {
      return;
    }
    if (!s.outbox.isEmpty()) {
      List<Reply> replies = s.outbox;
      s.outbox = new ArrayList<>(4);
      sink.deliver(s, replies, s.isIdle());
    }
    if (s.isEnded) {
      s.isEnded = false;
      sink.ended(s);
    }
    delivered.accept(s);
  }
}
