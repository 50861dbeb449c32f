package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.JobState;

/**
 * Deletes a tube's jobs in some states (ready, delayed, buried; never reserved ones) a bounded
 * slice per event-loop turn, so that a flush of a million jobs never holds the engine's thread
 * for long. Each job goes as a {@code delete} takes it: logged as an ordinary delete record and
 * streamed to standbys, so replay, compaction and replication need nothing new.
 */
final class TubeFlush {
  /** At most this many jobs per slice. */
  static final int JOBS_PER_SLICE = 2_000;
  /** And about this long on the engine's clock, whichever comes first. */
  static final long SLICE_NANOS = 1_000_000;
  /** The clock is read once per this many jobs. */
  private static final int JOBS_PER_CLOCK_READ = 64;

  private final JobTransitions jobs;
  private final Clock clock;

  TubeFlush(JobTransitions jobs, Clock clock) {
    this.jobs = jobs;
    this.clock = clock;
  }

  /** A new flush of {@code t}: it may delete what the flush's states hold now. */
  FlushProgress start(Tube t, Command.Flush flush) {
    long limit = 0;
    if (flush.states().contains(JobState.READY)) {
      limit += t.readyCount();
    }
    if (flush.states().contains(JobState.DELAYED)) {
      limit += t.delayedCount();
    }
    if (flush.states().contains(JobState.BURIED)) {
      limit += t.buriedCount();
    }
    return new FlushProgress(flush, 0, limit);
  }

  /** Deletes one slice; the progress after it, done when its limit is reached or nothing is left. */
  FlushProgress slice(Tube t, FlushProgress p) {
    long start = clock.nanos();
    long deleted = p.deletedSoFar();
    for (int n = 1; deleted < p.limit() && n <= JOBS_PER_SLICE; n++) {
      int j = next(t, p.flush());
      if (j == JobTable.NONE) {
        return new FlushProgress(p.flush(), deleted, deleted);
      }
      jobs.remove(j);
      deleted++;
      if (n % JOBS_PER_CLOCK_READ == 0 && clock.nanos() - start >= SLICE_NANOS) {
        break;
      }
    }
    return new FlushProgress(p.flush(), deleted, p.limit());
  }

  /**
   * The next job to delete: buried ones first as they were buried, then ready ones as long as they
   * have waited, then delayed ones from the end of their heap (no order to keep there, and a heap's
   * last element leaves without any sifting).
   */
  private static int next(Tube t, Command.Flush flush) {
    if (flush.states().contains(JobState.BURIED) && t.hasBuried()) {
      return t.firstBuried();
    }
    if (flush.states().contains(JobState.READY) && t.readyCount() > 0) {
      return t.oldestReady();
    }
    if (flush.states().contains(JobState.DELAYED) && t.hasDelayed()) {
      return t.lastDelayed();
    }
    return JobTable.NONE;
  }
}
