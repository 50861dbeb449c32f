package io.github.vertxbeanstalkd.persistence;

import io.github.vertxbeanstalkd.persistence.BinlogRecord.JobSnapshot;

/**
 * Where a replay puts the jobs it reads, one record at a time and in log order, so that nothing
 * but the record at hand is held on the heap: the engine's off-heap job store at start-up, or a
 * plain collection for tools and tests ({@link Replay#read}). What a record means is FORMAT.md's
 * "Replay": the last record of a job wins, and a change to a job the target does not hold was
 * superseded (the job was deleted, or its older records went with a compacted segment).
 */
public interface ReplayTarget {
  /**
   * The job becomes what {@code job} says: a new job, or one that replaces the job of that id (a
   * compaction's migration). {@code segment} and {@code frameBytes} say where the snapshot is stored.
   */
  void snapshot(JobSnapshot job, long segment, int frameBytes);

  /**
   * A release, bury, kick or reserve of job {@code id} (see {@link Replay#changed}); ignored when
   * the target holds no such job.
   */
  void change(long id, BinlogRecord change);

  /** Job {@code id} is deleted; ignored when the target holds no such job. */
  void delete(long id);

  /** The tubes' settings are {@code table} from now on (the last table in the log wins). */
  default void tubeSettings(BinlogRecord.TubeSettingsTable table) {}

  /** Job {@code note.id()}'s standing toward maxReserves; ignored when the target holds no such job. */
  default void deadLetterNote(BinlogRecord.DeadLetterNote note) {}
}
