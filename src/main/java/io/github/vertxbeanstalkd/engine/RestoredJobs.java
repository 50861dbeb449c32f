package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.persistence.BinlogRecord;
import io.github.vertxbeanstalkd.persistence.ReplayTarget;

/**
 * A replay of the binlog straight into the engine's off-heap job store, record by record, with
 * nothing logged again: a restart takes no heap for the jobs it brings back.
 */
final class RestoredJobs implements ReplayTarget {
  private final JobTransitions jobs;

  RestoredJobs(JobTransitions jobs) {
    this.jobs = jobs;
  }

  @Override
  public void snapshot(BinlogRecord.JobSnapshot job, long segment, int frameBytes) {
    jobs.restoreSnapshot(job);
  }

  @Override
  public void change(long id, BinlogRecord change) {
    jobs.restoreChange(id, change);
  }

  @Override
  public void delete(long id) {
    jobs.restoreDelete(id);
  }

  @Override
  public void deadLetterNote(BinlogRecord.DeadLetterNote note) {
    jobs.restoreNote(note, null, 0);
  }

  @Override
  public void tubeSettings(BinlogRecord.TubeSettingsTable table) {
    jobs.restoreTubeSettings(table);
  }
}
