package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.protocol.Reply;
import java.util.ArrayList;

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
 */
final class FrontFlow {
  private long budgetBytes;
  private long inTransitBytes;
  /** Sessions that stopped before a body command because the budget was spent, in that order. */
  private final ArrayList<Session> throttled = new ArrayList<>();

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

  void throttle(Session s) {
    s.setThrottled(true);
    throttled.add(s);
  }

  /**
   * The front received {@code bytes} of bodies. Once the budget has room again, the throttled
   * sessions are handed to {@code wake}, in the order they stopped.
   */
  void received(long bytes, java.util.function.Consumer<Session> wake) {
    inTransitBytes -= bytes;
    if (isSpent() || throttled.isEmpty()) {
      return;
    }
    for (int i = 0; i < throttled.size(); i++) {
      Session s = throttled.get(i);
      s.setThrottled(false);
      wake.accept(s);
    }
    throttled.clear();
  }
}
