package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.protocol.Reply;
import java.util.ArrayList;
import java.util.List;

/**
 * One session's replies on their way out, and what {@link DurableReplies} keeps for it: whether it
 * has something to send this turn, a notice or end notice it owes, and the binlog sequence its
 * replies wait for.
 */
final class Outbox {
  /** Reused: what leaves is a copy (see {@link #take()}). */
  private final ArrayList<Reply> replies = new ArrayList<>(4);
  private boolean isDirty;
  private boolean owesNotice;
  private boolean owesEndNotice;
  private boolean isAwaitingDurable;
  private long awaitedSequence;

  void add(Reply r) {
    replies.add(r);
  }

  boolean hasReplies() {
    return !replies.isEmpty();
  }

  /** How many replies wait. */
  int size() {
    return replies.size();
  }

  /** The {@code i}th reply waiting; {@link #clear()} once they are taken. */
  Reply get(int i) {
    return replies.get(i);
  }

  void clear() {
    replies.clear();
  }

  /** The replies, as an immutable list of their own. */
  List<Reply> take() {
    List<Reply> r = copyOf(replies);
    replies.clear();
    return r;
  }

  /** Every reply waiting to leave becomes INTERNAL_ERROR, one for one, so the client stays in step. */
  void failAll() {
    replies.replaceAll(r -> Reply.Word.INTERNAL_ERROR);
  }

  /** True when it was not yet marked this turn. */
  boolean markDirty() {
    boolean was = isDirty;
    isDirty = true;
    return !was;
  }

  void clearDirty() {
    isDirty = false;
  }

  /** Its front must hear how the session stands even without a reply (its last job was taken back). */
  void oweNotice() {
    owesNotice = true;
  }

  boolean takeNotice() {
    boolean was = owesNotice;
    owesNotice = false;
    return was;
  }

  void oweEndNotice() {
    owesEndNotice = true;
  }

  /** True once, when the end notice is due. */
  boolean takeEndNotice() {
    boolean was = owesEndNotice;
    owesEndNotice = false;
    return was;
  }

  boolean isAwaitingDurable() {
    return isAwaitingDurable;
  }

  void awaitDurable(long sequence) {
    isAwaitingDurable = true;
    awaitedSequence = sequence;
  }

  /** Its replies may leave once the binlog is durable up to {@code sequence}. */
  boolean isDurableAt(long sequence) {
    return awaitedSequence <= sequence;
  }

  void durableReached() {
    isAwaitingDurable = false;
  }

  /** An immutable copy; for one or two elements, without List.copyOf's intermediate array. */
  private static <T> List<T> copyOf(ArrayList<T> list) {
    return switch (list.size()) {
      case 0 -> List.of();
      case 1 -> List.of(list.get(0));
      case 2 -> List.of(list.get(0), list.get(1));
      default -> List.copyOf(list);
    };
  }
}
