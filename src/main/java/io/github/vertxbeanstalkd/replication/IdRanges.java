package io.github.vertxbeanstalkd.replication;

import io.github.vertxbeanstalkd.replication.election.GroupLock;
import io.github.vertxbeanstalkd.replication.shipping.EngineShipping;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ranges of job ids a primary issues from, each taken from the group's consensus store
 * ({@link GroupLock#takeIds}), so that no id is issued by two nodes whatever the network does
 * (REPLICATION.md), even by a cut-off primary that acknowledges asynchronously (minAcks 0). The
 * next range is taken once half of the current one is issued. Runs on the replication node's context.
 *
 * @see <a href="{@docRoot}/../spec/REPLICATION.html">REPLICATION.md</a>
 */
final class IdRanges {
  private static final Logger log = LoggerFactory.getLogger(IdRanges.class);
  /** Ids in one range: at 100,000 puts a second, half of it lasts 5 s, against a few ms to take the next. */
  static final long RANGE_IDS = 1_000_000;

  private static final long RETRY_MILLIS = 500;
  private final Vertx vertx;
  private final EngineShipping engine;
  /** Takes {@code count} ids from at least the first argument: completes with the first id. */
  private final BiFunction<Long, Long, Future<Long>> store;
  /** The newest range: from {@code first} to {@code until}, exclusive; the engine may issue up to {@code until}. */
  private long first;
  private long until;
  private boolean isTaking;
  private boolean isStopped;

  IdRanges(Vertx vertx, EngineShipping engine, BiFunction<Long, Long, Future<Long>> store) {
    this.vertx = vertx;
    this.engine = engine;
    this.store = store;
  }

  /**
   * Takes the first range, from at least the engine's next id; the engine issues none before. Tried
   * again until it succeeds or this primary steps down (its lease ends first when the store is out of reach).
   */
  Future<Void> start() {
    Promise<Void> started = Promise.promise();
    startInto(started);
    return started.future();
  }

  private void startInto(Promise<Void> started) {
    engine.run(port -> port.nextJobId()).compose(this::take).onComplete(r -> {
      if (r.succeeded() || isStopped) {
        started.tryComplete();
      } else {
        log.warn("replication: could not take a range of job ids ({}); trying again", r.cause().toString());
        vertx.setTimer(RETRY_MILLIS, id -> startInto(started));
      }
    });
  }

  /** Every few hundred milliseconds: a range half issued has its successor taken. */
  void tick() {
    if (isTaking || isStopped || until == 0) {
      return;
    }
    engine.run(port -> port.nextJobId()).onSuccess(next -> {
      if (!isTaking && !isStopped && next - first >= RANGE_IDS / 2) {
        take(until).onFailure(e -> log.warn("replication: could not take the next range of job ids ({}); "
            + "trying again", e.toString()));
      }
    });
  }

  void stop() {
    isStopped = true;
  }

  private Future<Void> take(long atLeast) {
    isTaking = true;
    return store.apply(atLeast, RANGE_IDS).compose(from -> {
      isTaking = false;
      if (isStopped) {
        return Future.succeededFuture();
      }
      // The range that follows the current one extends it; another (a primary took ids meanwhile)
      // starts where it starts, and what was left of the current one is not issued.
      long f = from == until ? 0 : from;
      first = from;
      until = from + RANGE_IDS;
      long u = until;
      return engine.run(port -> {
        port.allowIds(f, u);
        return null;
      }).mapEmpty();
    }, e -> {
      isTaking = false;
      return Future.failedFuture(e);
    });
  }
}
