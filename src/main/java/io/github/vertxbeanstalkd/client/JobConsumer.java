package io.github.vertxbeanstalkd.client;

import io.github.vertxbeanstalkd.contract.Failure;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running {@link BeanstalkClient#consume}: one loop per slot that reserves a job, runs the
 * handler, then deletes the job (success) or releases it with a back-off delay (failure).
 * {@link #stop()} lets the handlers that run finish, then ends every slot's session. A failover
 * does not stop it: a reserve that finds the queue unreachable is retried until the new primary
 * answers, and a job whose delete or release is lost comes back (at-least-once).
 *
 * @see <a href="{@docRoot}/../spec/REPLICATION.html">REPLICATION.md</a>
 */
public final class JobConsumer {
  private static final Logger log = LoggerFactory.getLogger(JobConsumer.class);

  private final Vertx vertx;
  /** Every slot runs on this one context, so the consumer's state needs no locks. */
  private final Context context;
  private final List<String> tubes;
  private final ConsumeOptions options;
  private final Function<BeanstalkJob, Future<?>> handler;
  private final List<Slot> slots = new ArrayList<>();
  private boolean isStopping;
  private long handled;
  private long failed;

  JobConsumer(Vertx vertx, List<BeanstalkClient> clients, List<String> tubes, ConsumeOptions options,
      Function<BeanstalkJob, Future<?>> handler) {
    this.vertx = vertx;
    this.context = vertx.getOrCreateContext();
    this.tubes = tubes;
    this.options = options;
    this.handler = handler;
    for (BeanstalkClient client : clients) {
      Slot slot = new Slot(client);
      slots.add(slot);
      context.runOnContext(v -> slot.reserve());
    }
  }

  /** Jobs whose handler succeeded (and were deleted) so far. */
  public long handledCount() {
    return handled;
  }

  /** Jobs whose handler failed (and were released) so far. */
  public long failedCount() {
    return failed;
  }

  /** Stops reserving; completes once running handlers are done and every session has ended. */
  public Future<Void> stop() {
    Promise<Void> stopped = Promise.promise();
    context.runOnContext(v -> {
      isStopping = true;
      List<Future<Void>> done = new ArrayList<>();
      for (Slot slot : slots) {
        if (!slot.isHandling) {
          // Ends a reserve that waits on the server now rather than at its timeout.
          slot.client.close();
        }
        done.add(slot.stopped.future());
      }
      Future.all(done).<Void>mapEmpty().onComplete(stopped);
    });
    return stopped.future();
  }

  /** One concurrent reserver, with a session of its own. */
  private final class Slot {
    final BeanstalkClient client;
    final Promise<Void> stopped = Promise.promise();
    boolean isHandling;

    Slot(BeanstalkClient client) {
      this.client = client;
    }

    void reserve() {
      if (isStopping) {
        finish();
        return;
      }
      client.reserve(tubes, options.reserveTimeoutSeconds(), () -> isStopping).onComplete(ar -> {
        if (ar.succeeded()) {
          handle(ar.result());
        } else if (isStopping) {
          finish();
        } else if (BeanstalkException.is(ar.cause(), Failure.TIMED_OUT)
            || BeanstalkException.is(ar.cause(), Failure.DEADLINE_SOON)) {
          reserve();
        } else {
          log.warn("reserve from {} failed ({}); trying again in {} ms", tubes, ar.cause().getMessage(),
              options.retryMillis());
          vertx.setTimer(options.retryMillis(), id -> reserve());
        }
      });
    }

    void handle(BeanstalkJob job) {
      if (isStopping) {
        // The stop's quit has already returned this job to ready.
        finish();
        return;
      }
      isHandling = true;
      Future<?> outcome;
      try {
        outcome = handler.apply(job);
      } catch (RuntimeException e) {
        outcome = Future.failedFuture(e);
      }
      (outcome == null ? Future.succeededFuture() : outcome)
          .transform(ar -> ar.succeeded() ? succeeded(job) : failed(job, ar.cause()))
          .onComplete(v -> {
            isHandling = false;
            reserve();
          });
    }

    Future<Void> succeeded(BeanstalkJob job) {
      handled++;
      return client.delete(job.id()).recover(e -> {
        // REPLICATION.md: after a failover the job is ready again on the new primary, and may run twice.
        log.warn("job {} was handled but could not be deleted ({}); it may be handled again", job.id(),
            e.getMessage());
        return Future.succeededFuture();
      });
    }

    /** Releases the job with its own priority and a delay that grows with its releases. */
    Future<Void> failed(BeanstalkJob job, Throwable cause) {
      failed++;
      log.debug("job {} failed: {}", job.id(), cause.toString());
      return client.statsJob(job.id())
          .compose(stats -> client.release(job.id(), stats.getLong("pri"),
              options.backoffSeconds(stats.getLong("releases"))))
          .recover(e -> {
            log.warn("job {} failed and could not be released ({}); it returns after its TTR or a failover", job.id(),
                e.getMessage());
            return Future.succeededFuture();
          });
    }

    void finish() {
      client.close().onComplete(v -> stopped.tryComplete());
    }
  }
}
