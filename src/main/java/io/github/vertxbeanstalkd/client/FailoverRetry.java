package io.github.vertxbeanstalkd.client;

import io.github.vertxbeanstalkd.cluster.AddressRoutes;
import io.github.vertxbeanstalkd.contract.Action;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.LongFunction;

/**
 * One request of a {@link BeanstalkClient} carried through a failover (REPLICATION.md: requests in
 * flight fail rather than hang, and the client retries those that are safe to repeat). A request
 * that reached no node ({@code NO_HANDLERS}) did not happen, so it is sent again whatever it is; a
 * request whose reply timed out is sent again only when repeating it is harmless (a reserve, a
 * peek, stats). Retries back off from 50 ms to 500 ms and stop {@code failoverRetryMillis} after
 * the first such failure; what is not retried fails with a {@link QueueUnreachableException}.
 * Each such failure also makes this node look up again who serves the address ({@link
 * AddressRoutes}): after Hazelcast split this node off and merged it back, its route may name a node
 * that no longer serves it, and would go on naming it.
 *
 * @see <a href="{@docRoot}/../spec/REPLICATION.html">REPLICATION.md</a>
 */
final class FailoverRetry {
  private static final long FIRST_BACKOFF_MILLIS = 50;
  // REPLICATION.md: the new primary registers the address within 3 s; this finds it soon after.
  private static final long MOST_BACKOFF_MILLIS = 500;

  /**
   * Actions that may be sent again after a timeout. A reserve whose reply was lost may have
   * reserved a job: that job returns to ready after its TTR, or at once on a new primary
   * (REPLICATION.md: jobs reserved on the old primary are ready on the new one).
   */
  private static final Set<Action> REPEATABLE = EnumSet.of(Action.RESERVE, Action.PEEK, Action.PEEK_READY,
      Action.PEEK_DELAYED, Action.PEEK_BURIED, Action.STATS_JOB, Action.STATS_TUBE, Action.STATS, Action.LIST_TUBES);

  private final Vertx vertx;
  private final String address;
  private final AddressRoutes routes;
  private final long budgetMillis;
  private final Action action;
  private final LongFunction<Future<JsonObject>> attempt;
  private final BooleanSupplier isCancelled;
  private final long startNanos = System.nanoTime();
  private long firstFailureNanos = -1;
  private int retries;

  private FailoverRetry(Vertx vertx, AddressRoutes routes, BeanstalkClientOptions options, Action action,
      LongFunction<Future<JsonObject>> attempt, BooleanSupplier isCancelled) {
    this.vertx = vertx;
    this.routes = routes;
    this.address = options.address();
    this.budgetMillis = options.failoverRetryMillis();
    this.action = action;
    this.attempt = attempt;
    this.isCancelled = isCancelled;
  }

  /**
   * Runs {@code attempt} (given the milliseconds since the first try) until it succeeds, fails
   * otherwise than by being unreachable, or may not or need not be tried again.
   */
  static Future<JsonObject> send(Vertx vertx, AddressRoutes routes, BeanstalkClientOptions options, Action action,
      LongFunction<Future<JsonObject>> attempt, BooleanSupplier isCancelled) {
    return new FailoverRetry(vertx, routes, options, action, attempt, isCancelled).next();
  }

  static boolean isRepeatable(Action action) {
    return REPEATABLE.contains(action);
  }

  private Future<JsonObject> next() {
    return attempt.apply(millisSince(startNanos)).recover(this::retryOrFail);
  }

  private Future<JsonObject> retryOrFail(Throwable error) {
    if (!(error instanceof ReplyException re) || !AddressRoutes.mayBeStale(error)) {
      return Future.failedFuture(error);
    }
    routes.refresh(address);
    boolean reachedNoNode = re.failureType() == ReplyFailure.NO_HANDLERS;
    boolean isSafeToRepeat = reachedNoNode || isRepeatable(action);
    if (firstFailureNanos < 0) {
      firstFailureNanos = System.nanoTime();
    }
    long backoffMillis = Math.min(FIRST_BACKOFF_MILLIS << Math.min(retries, 10), MOST_BACKOFF_MILLIS);
    // A quit that reached no node is not sent again: a failover ends the session anyway, its jobs
    // ready on the new primary, and stopping a consumer should not wait for the address to return.
    boolean isRetried = isSafeToRepeat && action != Action.QUIT
        && millisSince(firstFailureNanos) + backoffMillis <= budgetMillis && !isCancelled.getAsBoolean();
    if (!isRetried) {
      return Future.failedFuture(unreachable(re, isSafeToRepeat));
    }
    retries++;
    return vertx.timer(backoffMillis).compose(v -> isCancelled.getAsBoolean()
        ? Future.failedFuture(unreachable(re, isSafeToRepeat)) : next());
  }

  private QueueUnreachableException unreachable(ReplyException cause, boolean isSafeToRepeat) {
    String tries = retries == 0 ? "" : String.format(" for %d ms over %d tries", millisSince(firstFailureNanos),
        retries + 1);
    String message;
    if (cause.failureType() == ReplyFailure.NO_HANDLERS) {
      message = String.format("%s: no node consumed the queue's address '%s'%s, as for a moment during a failover;"
          + " the request reached no node, so it did not happen and is safe to send again", action.word(), address, tries);
    } else if (isSafeToRepeat) {
      message = String.format("%s: no reply from the queue at '%s'%s (its primary may have failed);"
          + " a %s is safe to send again", action.word(), address, tries,
          action == Action.RESERVE ? "reserve (a job it may have got returns to ready)" : "read");
    } else {
      message = String.format("%s: no reply from the queue at '%s' (its primary may have failed);"
          + " the request may or may not have happened: check the queue before sending it again", action.word(), address);
    }
    return new QueueUnreachableException(action.word(), isSafeToRepeat, cause, message + " (" + cause.getMessage() + ")");
  }

  private static long millisSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000;
  }
}
