package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.persistence.Binlog;

/**
 * Rewrites the live jobs the binlog names (migrations), so that its oldest segments can be
 * deleted, with bounded work per event-loop turn: a number of jobs rewritten, and a number of the
 * oldest segment's snapshots looked at to find them. The oldest is compacted when its live jobs are
 * at most an eighth of it, so the search passes over superseded snapshots: a 10 MiB segment (the
 * default) of 100-byte jobs holds about 70,000, and a search that went round them all for each 64
 * jobs asked, up to eight times a turn, made turns of 4 to 8 ms of the engine's CPU (seen while a
 * million-job tube was flushed: its deletes leave exactly such segments).
 */
final class Compaction {
  /** Live jobs rewritten per turn when the binlog asks for compaction. */
  static final int MIGRATIONS_PER_TURN = 512;
  /** Snapshots looked at per turn to find them: a job record read each, well under a millisecond. */
  static final int SNAPSHOTS_SEARCHED_PER_TURN = 8_192;

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
    long[] ids = binlog.jobsToMigrate(MIGRATIONS_PER_TURN, SNAPSHOTS_SEARCHED_PER_TURN);
    boolean isCut = binlog.isMigrationSearchCut();
    for (long id : ids) {
      int j = jobs.get(id);
      if (j != JobTable.NONE) {
        jobs.migrate(j, now);
      }
    }
    // A search that went a whole round and found nothing stops here until another turn asks again.
    return (ids.length > 0 || isCut) && binlog.isCompactionDue();
  }
}
