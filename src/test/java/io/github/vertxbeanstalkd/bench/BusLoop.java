package io.github.vertxbeanstalkd.bench;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Runs bus phases on one Vert.x context (the sending side of every request, so every reply comes
 * back to it) and waits for each from the calling thread. A phase ends when it is done, when no
 * answer arrives for the stall limit, or after too many errors (both reported as errors).
 */
final class BusLoop {
  private static final long TICK_MILLIS = 5;
  /** Past this many failed requests in one phase the server is clearly misbehaving: stop. */
  private static final long MAX_ERRORS = 1000;

  private final Vertx vertx;
  private final Context context;
  private final long stallNanos;

  BusLoop(Vertx vertx, Context context, long stallMillis) {
    this.vertx = vertx;
    this.context = context;
    this.stallNanos = TimeUnit.MILLISECONDS.toNanos(stallMillis);
  }

  /** Runs the phase to its end; returns false if it was cut short (its errors say why). */
  boolean run(BusPhase phase) {
    CompletableFuture<Boolean> finished = new CompletableFuture<>();
    context.runOnContext(v -> new Watch(phase, finished).start());
    try {
      return finished.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while a bus phase ran", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("bus phase failed: " + e.getCause(), e.getCause());
    }
  }

  /** The phase's timer, on the context: ticks, stall and error checks, completion. */
  private final class Watch {
    private final BusPhase phase;
    private final CompletableFuture<Boolean> finished;
    private long timerId;
    private long lastAnswers;
    private long lastProgressNanos;

    Watch(BusPhase phase, CompletableFuture<Boolean> finished) {
      this.phase = phase;
      this.finished = finished;
    }

    void start() {
      try {
        lastProgressNanos = System.nanoTime();
        phase.start(lastProgressNanos);
        timerId = vertx.setPeriodic(TICK_MILLIS, id -> tick());
      } catch (RuntimeException e) {
        finished.completeExceptionally(e);
      }
    }

    private void tick() {
      long now = System.nanoTime();
      phase.onTick(now);
      if (phase.isDone()) {
        end(true);
        return;
      }
      if (phase.errors().count() > MAX_ERRORS) {
        phase.errors().addFatal("gave up after " + MAX_ERRORS + " errors; " + phase.describeProgress());
        end(false);
        return;
      }
      if (phase.answers != lastAnswers) {
        lastAnswers = phase.answers;
        lastProgressNanos = now;
      } else if (now - lastProgressNanos > stallNanos) {
        phase.errors().addFatal("stall: no answer for " + TimeUnit.NANOSECONDS.toMillis(stallNanos) + " ms; "
            + phase.describeProgress());
        end(false);
      }
    }

    private void end(boolean isComplete) {
      vertx.cancelTimer(timerId);
      if (!isComplete) {
        phase.isAborted = true;
      }
      finished.complete(isComplete);
    }
  }
}
