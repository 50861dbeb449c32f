package io.github.vertxbeanstalkd.client;

import io.vertx.core.eventbus.ReplyException;

/**
 * A request of the {@link BeanstalkClient} that found no queue to answer it, as happens for a
 * moment during a failover (REPLICATION.md): either no node consumed the address
 * ({@code NO_HANDLERS}: the request reached no node, so it did not happen) or no reply came in
 * time ({@code TIMEOUT}: it may or may not have happened). It keeps the event bus's failure type
 * and code, and says whether sending the same request again is safe.
 *
 * @see <a href="{@docRoot}/../spec/EVENTBUS.html">EVENTBUS.md</a>
 * @see <a href="{@docRoot}/../spec/REPLICATION.html">REPLICATION.md</a>
 */
public final class QueueUnreachableException extends ReplyException {
  private final String action;
  private final boolean isSafeToRepeat;

  QueueUnreachableException(String action, boolean isSafeToRepeat, ReplyException cause, String message) {
    super(cause.failureType(), cause.failureCode(), message, cause, true);
    this.action = action;
    this.isSafeToRepeat = isSafeToRepeat;
  }

  /** The request's action, as EVENTBUS.md names it: {@code put}, {@code delete}, ... */
  public String action() {
    return action;
  }

  /**
   * True when sending the request again cannot do it twice: it reached no node, or it is a read
   * or a reserve. False for a change whose reply timed out: check the queue before repeating it.
   */
  public boolean isSafeToRepeat() {
    return isSafeToRepeat;
  }
}
