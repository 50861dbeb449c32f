package io.github.vertxbeanstalkd.bus;

import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.Reply;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VertxException;
import java.util.ArrayDeque;
import java.util.List;

/**
 * An engine session used call by call, for fronts that answer each request on its own (the event
 * bus, the admin API): each command gets a future of its reply, matched first in, first out, since
 * the engine answers a session's commands in order. The session is opened on the first call, and
 * again on the next call after it ended.
 */
public final class SessionCalls {
  /** A call that was queued behind a reserve when its session ended, so it never ran. */
  public static final class SessionEnded extends VertxException {
    SessionEnded() {
      super("the session ended before this ran", true);
    }
  }

  private final EngineClient client;
  private final Runnable onIdle;
  private final ArrayDeque<Promise<Reply>> waiting = new ArrayDeque<>(2);
  private EngineSession session;
  private Promise<Void> ending;

  /**
   * @param onIdle run when the engine reports the session answered, holding no job, with no call
   *     waiting: a front that keeps sessions only while they matter may {@link #close()} it then
   */
  public SessionCalls(EngineClient client, Runnable onIdle) {
    this.client = client;
    this.onIdle = onIdle;
  }

  /** Runs {@code command} on the tubes {@code scope} names, and answers its reply. */
  public Future<Reply> call(Command command, Scope scope) {
    if (session == null || session.isClosed()) {
      session = client.open(false, this::onReply);
    }
    Promise<Reply> p = Promise.promise();
    waiting.add(p);
    session.submit(List.of(command), scope);
    return p.future();
  }

  /**
   * Ends the session: a reserve it waits in answers TIMED_OUT, calls queued behind it fail with
   * {@link SessionEnded}, and its jobs return to ready. Completes once the engine confirms.
   */
  public Future<Void> close() {
    if (session == null || session.isClosed()) {
      return Future.succeededFuture();
    }
    ending = Promise.promise();
    session.endInput();
    session.close(true);
    return ending.future();
  }

  /** True when no call waits for its reply. */
  public boolean isIdle() {
    return waiting.isEmpty();
  }

  private void onReply(EngineReply reply) {
    for (Reply r : reply.replies()) {
      Promise<Reply> p = waiting.poll();
      if (p != null) {
        p.complete(r);
      }
    }
    if (reply.hasEnded()) {
      for (Promise<Reply> p = waiting.poll(); p != null; p = waiting.poll()) {
        p.fail(new SessionEnded());
      }
      if (ending != null) {
        Promise<Void> e = ending;
        ending = null;
        e.complete();
      }
    } else if (reply.isComplete() && !reply.holdsJobs() && waiting.isEmpty() && onIdle != null) {
      onIdle.run();
    }
  }
}
