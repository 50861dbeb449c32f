package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.bus.Scope;
import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.Reply;
import java.util.ArrayDeque;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whose commands run now and whose wait for a later event-loop turn: each runnable session's
 * queued commands run in order until it blocks in a reserve, runs dry, or a long command yields.
 */
final class Turns {
  private static final Logger log = LoggerFactory.getLogger(Turns.class);

  private final ArrayDeque<Session> runnable = new ArrayDeque<>();
  private final ArrayDeque<Session> yielded = new ArrayDeque<>();
  private final CommandHandlers handlers;
  private final Tubes tubes;
  private final MemoryCap memory;
  private final BiConsumer<Session, Reply> replies;
  private boolean isYieldRequested;
  /** {@link #wake}, made once: the front's flow wakes its next session after each run. */
  private final Consumer<Session> wakeOne = this::wake;

  Turns(CommandHandlers handlers, Tubes tubes, MemoryCap memory, BiConsumer<Session, Reply> replies) {
    this.handlers = handlers;
    this.tubes = tubes;
    this.memory = memory;
    this.replies = replies;
  }

  /** {@code s} got new commands: it runs this turn unless it waits in a reserve or yielded. */
  void schedule(Session s) {
    if (!s.isWaiting() && !s.isThrottled() && !yielded.contains(s)) {
      runnable.add(s);
    }
  }

  /** {@code s} was answered out of a wait: what it queued behind the reserve runs now. */
  void wake(Session s) {
    runnable.add(s);
  }

  /** The running command stops here and continues on a later turn. */
  void requestYield() {
    isYieldRequested = true;
  }

  boolean hasYielded() {
    return !yielded.isEmpty();
  }

  void resumeYielded() {
    runnable.addAll(yielded);
    yielded.clear();
  }

  /** Runs every runnable session. */
  void runAll() {
    for (Session s = runnable.poll(); s != null; s = runnable.poll()) {
      run(s);
      s.flow.ran(s, wakeOne);
    }
  }

  private void run(Session s) {
    long sent = 0;
    while (!s.isWaiting() && !s.isClosed()) {
      if (s.isInScope() && !s.commands.hasPendingWork()) {
        // The scoped command before is done, a reserve it waited in included.
        tubes.leaveScope(s);
      }
      if ((s.flow.isSpent() || sent >= FrontFlow.QUANTUM_BYTES && s.flow.hasWaiting())
          && !s.commands.hasPendingWork() && Command.isAnsweredWithCopy(s.commands.peek())) {
        // Its front has not yet received enough of the bodies and documents sent to it, or others
        // wait for room and this one had its share: this one waits.
        s.flow.throttle(s, sent);
        return;
      }
      Continued pending = s.commands.takePendingWork();
      Command next = pending == null ? s.commands.poll() : null;
      if (pending == null && next == null) {
        return;
      }
      Reply r;
      try {
        if (pending != null) {
          r = pending.continueIn(handlers, s);
        } else {
          Scope scope = s.commands.nextScope();
          long newTubeBytes = scope.isNone() ? 0 : tubes.newTubeBytes(scope);
          if (newTubeBytes > 0 && !memory.admitsHeld(newTubeBytes)) {
            // A scope naming tubes that do not exist makes them, as use and watch do, under the same caps.
            r = Reply.Word.OUT_OF_MEMORY;
          } else {
            if (!scope.isNone()) {
              tubes.enterScope(s, scope);
            }
            r = s.isRefused() ? Reply.Word.OUT_OF_MEMORY : next.dispatch(handlers, s);
          }
        }
      } catch (RuntimeException bug) {
        // STYLE.md: an exception is a bug; log it and still answer, so the client is never stuck.
        log.error("command {} failed", next == null ? pending.getClass().getSimpleName() : next.getClass().getSimpleName(),
            bug);
        r = Reply.Word.INTERNAL_ERROR;
      }
      if (r != null) {
        sent += r.transitBytes();
        replies.accept(s, r);
      }
      if (isYieldRequested) {
        isYieldRequested = false;
        yielded.add(s);
        return;
      }
    }
  }
}
