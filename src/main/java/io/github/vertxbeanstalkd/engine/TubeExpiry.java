package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.protocol.TubeSettings;
import java.util.ArrayDeque;
import java.util.function.BooleanSupplier;

/**
 * maxAge: finds the ready and delayed jobs older than their tube's maxAge (since their put) and
 * buries or deletes them ({@code expire}), on the engine's timer. Once a second a pass starts over
 * the tubes that have a maxAge; it walks each one's ready and delayed heaps by position, a bounded
 * slice per turn, and goes on at the next turn. A job that a heap's reshuffle moves behind the
 * walk is found by the next pass. With no maxAge set anywhere it does nothing at all.
 */
final class TubeExpiry {
  /** A new pass starts this long after the last one started. */
  static final long PASS_PERIOD_NANOS = Clock.SECOND_NANOS;
  /** At most this many jobs looked at per turn. */
  static final int JOBS_PER_SLICE = 2_000;

  private final TubeRules rules;
  private final Tubes tubes;
  private final JobTransitions jobs;
  private final JobTable table;
  /** Whether this node may change jobs now (a primary that accepts changes, with a writable log). */
  private final BooleanSupplier mayChange;
  /** The tubes this pass has yet to walk, by name (a tube may go while the pass runs). */
  private final ArrayDeque<String> pass = new ArrayDeque<>();
  private boolean isWalkingDelayed;
  private int position;
  private long passStartNanos;
  private long nextPassNanos;

  TubeExpiry(TubeRules rules, Tubes tubes, JobTransitions jobs, BooleanSupplier mayChange) {
    this.rules = rules;
    this.tubes = tubes;
    this.jobs = jobs;
    this.table = jobs.table;
    this.mayChange = mayChange;
  }

  /** When {@link #sweep} has work next: at once while a pass is under way; Long.MAX_VALUE without maxAge. */
  long nextSweepNanos() {
    if (!pass.isEmpty()) {
      // Already due (no Long.MIN_VALUE: the verticle subtracts the time from it).
      return passStartNanos;
    }
    return rules.hasAgeLimits() ? nextPassNanos : Long.MAX_VALUE;
  }

  /** Walks at most {@code budget} jobs of the pass (starting one if it is time); returns the jobs walked. */
  int sweep(long now, int budget) {
    if (!rules.hasAgeLimits() || !mayChange.getAsBoolean()) {
      pass.clear();
      return 0;
    }
    if (pass.isEmpty()) {
      if (now < nextPassNanos) {
        return 0;
      }
      passStartNanos = now;
      nextPassNanos = now + PASS_PERIOD_NANOS;
      for (Tube t : tubes.inOrder()) {
        if (rules.effective(t.name).ageLimitSeconds() > 0 && t.readyCount() + t.delayedCount() > 0) {
          pass.add(t.name);
        }
      }
      isWalkingDelayed = false;
      position = 0;
    }
    int steps = 0;
    int limit = Math.min(budget, JOBS_PER_SLICE);
    while (!pass.isEmpty() && steps < limit) {
      Tube t = tubes.get(pass.peek());
      TubeSettings s = t == null ? TubeSettings.NONE : rules.effective(t.name);
      if (s.ageLimitSeconds() == 0) {
        nextTube();
        continue;
      }
      int size = isWalkingDelayed ? t.delayedCount() : t.readyCount();
      if (position >= size) {
        if (isWalkingDelayed) {
          nextTube();
        } else {
          isWalkingDelayed = true;
          position = 0;
        }
        continue;
      }
      steps++;
      int j = isWalkingDelayed ? t.delayedAt(position) : t.readyAt(position);
      if (now - table.createdNanos(j) >= s.ageLimitSeconds() * Clock.SECOND_NANOS) {
        // The heap's last job takes its place: the same position is looked at again.
        jobs.expireByAge(j, s.isExpiryDelete());
        rules.countExpired(t.name, s.isExpiryDelete());
      } else {
        position++;
      }
    }
    return steps;
  }

  private void nextTube() {
    pass.poll();
    isWalkingDelayed = false;
    position = 0;
  }
}
