package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.persistence.Binlog;

/**
 * Rewrites the live jobs the binlog names (migrations), so that its oldest segments can be
 * deleted, a bounded number per event-loop turn.
 */
final class Compaction {
  /** Live jobs rewritten per turn when the binlog asks for compaction. */
  static final int MIGRATIONS_PER_TURN = 512;

  private final Binlog binlog;
  private final JobTransitions jobs;

  Compaction(Binlog binlog, JobTransitions jobs) {
    this.binlog = binlog;
    this.jobs = jobs;
  }

  /** Migrates up to a turn's worth of jobs; true when more is due on a later turn. */
  boolean migrateSome(long now) {
    if (binlog.health() != Binlog.Health.WRITING || !binlog.isCompactionDue()) {
      return false;
    }
    int budget = MIGRATIONS_PER_TURN;
    while (budget > 0 && binlog.isCompactionDue()) {
      long[] ids = binlog.jobsToMigrate(Math.min(64, budget));
      if (ids.length == 0) {
        return false;
      }
      for (long id : ids) {
        int j = jobs.get(id);
        if (j != JobTable.NONE) {
          jobs.migrate(j, now);
        }
      }
      budget -= ids.length;
    }
    return budget <= 0 && binlog.isCompactionDue();
  }
}
