package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.bus.EngineReply;
import io.github.vertxbeanstalkd.persistence.Binlog;
import io.github.vertxbeanstalkd.protocol.Reply;
import java.util.ArrayList;

/**
 * The sessions' replies on their way out: each leaves only once every binlog record appended
 * before it is durable under the fsync policy, so no client sees an effect a crash could take
 * back. Replies wait per session and leave in the order they became ready, also across sessions.
 * A replicated primary's replies, all of them, also wait for a fresh lease on the group's lock.
 */
final class DurableReplies {
  private final ReplySink sink;
  private final Binlog binlog;
  private ReplicationGate gate = ReplicationGate.LOCAL;
  private final ArrayList<Session> dirty = new ArrayList<>();
  /** Sessions whose replies wait for the binlog, oldest first. */
  private final ArrayList<Session> awaitingDurable = new ArrayList<>();

  DurableReplies(ReplySink sink, Binlog binlog) {
    this.sink = sink;
    this.binlog = binlog;
  }

  void add(Session s, Reply r) {
    s.outbox.add(r);
    s.flow.sent(r);
    markDirty(s);
  }

  /** {@code s} has replies or a notice to send once this turn's work is done. */
  void markDirty(Session s) {
    if (s.outbox.markDirty()) {
      dirty.add(s);
    }
  }

  /** From now on a reply also waits for {@code gate} (a replicated primary's standbys and lease). */
  void guardBy(ReplicationGate gate) {
    this.gate = gate;
  }

  /** False while a replicated primary must refuse changes that need new room (put, release, bury, kick). */
  boolean acceptsChanges() {
    return gate.acceptsChanges();
  }

  /** When the replies of this turn must have reached their clients; see {@link ReplicationGate#answerBeforeNanos}. */
  long answerBeforeNanos() {
    return gate.answerBeforeNanos();
  }

  /** What the binlog alone made durable, whatever the gate says. */
  long localDurableSequence() {
    return binlog.durableSequence();
  }

  /** The highest sequence whose changes clients may hear of: durable here, and acknowledged. */
  long durableSequence() {
    return Math.min(binlog.durableSequence(), gate.acknowledgedSequence());
  }

  /** Sends what this turn produced, or holds it until {@code lastSequence} is durable. */
  void flush(long lastSequence) {
    long durable = durableSequence();
    if (!awaitingDurable.isEmpty()) {
      // Older replies first: the binlog may have moved on before its callback reached us.
      onDurable(durable);
    }
    boolean isDurable = gate.isLeaseFresh() && (lastSequence <= durable
        || (binlog.health() == Binlog.Health.FAILED && lastSequence <= gate.acknowledgedSequence()));
    for (int i = 0; i < dirty.size(); i++) {
      Session s = dirty.get(i);
      s.outbox.clearDirty();
      if (isDurable && !s.outbox.isAwaitingDurable()) {
        deliver(s);
      } else {
        if (!s.outbox.isAwaitingDurable()) {
          awaitingDurable.add(s);
        }
        s.outbox.awaitDurable(lastSequence);
      }
    }
    dirty.clear();
  }

  /**
   * Every record up to {@code sequence} is durable (the binlog's fsync, or a standby's
   * acknowledgement): the replies that waited for no more than what is both durable and
   * acknowledged may leave, in order. The binlog alone never releases a replicated primary's reply.
   */
  void onDurable(long sequence) {
    if (!gate.isLeaseFresh()) {
      // A replicated primary past its lease answers nothing until the lock is confirmed again.
      return;
    }
    sequence = Math.min(sequence, gate.acknowledgedSequence());
    int kept = 0;
    for (int i = 0; i < awaitingDurable.size(); i++) {
      Session s = awaitingDurable.get(i);
      if (s.outbox.isDurableAt(sequence)) {
        s.outbox.durableReached();
        deliver(s);
      } else {
        awaitingDurable.set(kept++, s);
      }
    }
    awaitingDurable.subList(kept, awaitingDurable.size()).clear();
  }

  /**
   * What they waited for will not come (the binlog failed for good, or a primary lost its lock):
   * replies that waited become INTERNAL_ERROR, one for one, so clients stay in step.
   */
  void failWaiting() {
    for (Session s : awaitingDurable) {
      s.outbox.durableReached();
      for (int i = 0; i < s.outbox.size(); i++) {
        s.flow.unsent(s.outbox.get(i));
      }
      s.outbox.failAll();
      deliver(s);
    }
    awaitingDurable.clear();
  }

  private void deliver(Session s) {
    boolean hasEnded = s.outbox.takeEndNotice();
    boolean owesNotice = s.outbox.takeNotice();
    if (!s.outbox.hasReplies() && !hasEnded && !owesNotice) {
      return;
    }
    // The usual turn of a session ends with one or two replies: they leave without a list.
    Outbox out = s.outbox;
    EngineReply reply = switch (out.size()) {
      case 1 -> EngineReply.of(s.key, out.get(0), s.isIdle(), s.holdsJobs(), hasEnded);
      case 2 -> EngineReply.of(s.key, out.get(0), out.get(1), s.isIdle(), s.holdsJobs(), hasEnded);
      default -> new EngineReply(s.key, out.take(), s.isIdle(), s.holdsJobs(), hasEnded);
    };
    out.clear();
    sink.deliver(reply);
  }
}
