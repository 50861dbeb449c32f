package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.protocol.Reply;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * The job bodies this engine has copied into one front's replies, and the documents it made for
 * them (stats, list-tubes: {@link Reply#transitBytes}), that the front has not yet said it
 * received ({@link io.github.vertxbeanstalkd.bus.EngineRequest.Received}), and the sessions that
 * wait for them to arrive before they run a command answered with either.
 *
 * <p>A front counts the replies it holds for clients that do not read them, but only once they
 * reach it. Until then nothing bounded the copies: 64 clients pipelining {@code peek} of a 64 KiB
 * job without reading had a few hundred MiB copied in one engine turn, and a server with
 * {@code -Xmx128m} ended with OutOfMemoryError. With this, what is on its way to a front is at most
 * the budget and one body; a reserve that waits for a job holds nothing, since nothing is copied
 * until a job is handed out.
 *
 * <p>Documents count too: 2,200 clients pipelining {@code list-tubes} (1,000 tubes) without
 * reading had about 70,000 lists made in one turn, and a server with conf/jvm.options ended with
 * OutOfMemoryError.
 *
 * <p>The sessions that wait take turns, and are woken one at a time while there is room. One that
 * was sent a copy in its turn goes behind those that were not, and one sent {@link #QUANTUM_BYTES}
 * while others wait stops for them. Before, every waiting session was woken at each receipt and
 * ran in the order they first stopped: a {@code stats} from a well-behaved client waited up to 11 s
 * behind 2,200 clients pipelining {@code peek} of a 64 KiB job without reading, each receipt
 * costing a pass over all of them for one body sent.
 */
final class FrontFlow {
  /** What a session is sent in one turn before it lets the sessions waiting go first. */
  static final long QUANTUM_BYTES = 64 * 1024;

  private long budgetBytes;
  private long inTransitBytes;
  /** Sessions that stopped before a copy and were not sent one in their last turn, in that order. */
  private final ArrayDeque<Session> waiting = new ArrayDeque<>();
  /** Sessions that stopped after they were sent a copy, in that order: they go after {@link #waiting}. */
  private final ArrayDeque<Session> served = new ArrayDeque<>();
  /** The session woken last, until it has run: the next is woken only then, if there is room. */
  private Session woken;

  FrontFlow(long budgetBytes) {
    this.budgetBytes = budgetBytes;
  }

  void setBudget(long bytes) {
    budgetBytes = bytes;
  }

  /** {@code r} is on its way to this front. */
  void sent(Reply r) {
    inTransitBytes += r.transitBytes();
  }

  /** {@code r} was replaced before it left (it became INTERNAL_ERROR): it will not arrive. */
  void unsent(Reply r) {
    inTransitBytes -= r.transitBytes();
  }

  /** Whether a session must wait before it runs a command that may copy another body. */
  boolean isSpent() {
    return inTransitBytes >= budgetBytes;
  }

  /**
   * Whether the front should report what it received: once half the budget is on its way, so the
   * front reports about once per half budget, not after every message, and a spent flow always
   * hears back (the message that spent it asked).
   */
  boolean isReceiptWanted() {
    return inTransitBytes >= budgetBytes / 2;
  }

  /** Whether sessions wait for room: one that has had its quantum then lets them go first. */
  boolean hasWaiting() {
    return !waiting.isEmpty() || !served.isEmpty();
  }

  /**
   * {@code s} waits for room before its next copy; {@code sentBytes} is what it was sent in this
   * turn. If anything, it goes behind the sessions that were sent nothing; if nothing, it keeps
   * its place among them (woken and beaten to the room, it is first again).
   */
  void throttle(Session s, long sentBytes) {
    s.setThrottled(true);
    boolean wasWoken = s == woken;
    if (wasWoken) {
      woken = null;
    }
    if (sentBytes > 0) {
      served.add(s);
    } else if (wasWoken) {
      waiting.addFirst(s);
    } else {
      waiting.add(s);
    }
  }

  /** The front received {@code bytes} of bodies and documents: if there is room, the next waiting session is woken. */
  void received(long bytes, Consumer<Session> wake) {
    inTransitBytes -= bytes;
    wakeNextIfRoom(wake);
  }

  /** {@code s} ran its turn: if it was the one woken and there is room left, the next is woken. */
  void ran(Session s, Consumer<Session> wake) {
    if (s == woken) {
      woken = null;
    }
    wakeNextIfRoom(wake);
  }

  private void wakeNextIfRoom(Consumer<Session> wake) {
    if (woken != null || isSpent()) {
      return;
    }
    Session next = waiting.isEmpty() ? served.poll() : waiting.poll();
    if (next != null) {
      next.setThrottled(false);
      woken = next;
      wake.accept(next);
    }
  }
}
