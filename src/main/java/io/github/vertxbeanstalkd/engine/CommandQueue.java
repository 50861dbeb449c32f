package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.bus.Scope;
import io.github.vertxbeanstalkd.protocol.Command;
import java.util.ArrayDeque;
import java.util.List;

/**
 * One session's commands waiting their turn (behind a blocked reserve, a throttled front, or the
 * turn's budget), each with the scope it was submitted in, and a kick or flush too large for one
 * turn, which is continued before anything queued. Replies go out in the order the commands came in, so the
 * queue is the session's order of work.
 */
final class CommandQueue {
  private static final int QUEUE_KEPT = 64;

  private ArrayDeque<Command> queued = new ArrayDeque<>();
  private ArrayDeque<Scope> scopes = new ArrayDeque<>();
  /**
   * The queues grew past {@link #QUEUE_KEPT}: once empty they are made anew, so that each of a
   * thousand sessions that once pipelined a thousand commands does not keep room for as many.
   */
  private boolean hasLongQueue;
  /** A kick or flush too large for one turn, continued before anything queued. */
  private Continued pending;

  void enqueue(List<Command> commands, Scope scope) {
    for (int i = 0, n = commands.size(); i < n; i++) {
      queued.add(commands.get(i));
      scopes.add(scope);
    }
    hasLongQueue |= queued.size() > QUEUE_KEPT;
  }

  /** The next command, or null; {@link #nextScope()} gives the scope it was submitted with. */
  Command poll() {
    return queued.poll();
  }

  /** The next command, left queued; null when there is none. */
  Command peek() {
    return queued.peek();
  }

  Scope nextScope() {
    Scope scope = scopes.poll();
    if (hasLongQueue && scopes.isEmpty()) {
      shrink();
    }
    return scope;
  }

  private void shrink() {
    queued = new ArrayDeque<>();
    scopes = new ArrayDeque<>();
    hasLongQueue = false;
  }

  void continueLater(Continued progress) {
    pending = progress;
  }

  boolean hasPendingWork() {
    return pending != null;
  }

  Continued takePendingWork() {
    Continued k = pending;
    pending = null;
    return k;
  }

  /** Drops every command not yet run. */
  void drop() {
    queued.clear();
    scopes.clear();
    if (hasLongQueue) {
      shrink();
    }
    pending = null;
  }

  /** Nothing queued and no kick or flush to continue. */
  boolean isEmpty() {
    return queued.isEmpty() && pending == null;
  }
}
