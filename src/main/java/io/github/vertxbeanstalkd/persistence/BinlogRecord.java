package io.github.vertxbeanstalkd.persistence;

import io.github.vertxbeanstalkd.protocol.TubeSettings;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;

/**
 * One change of queue state, as written to the binlog. Every record that is not a full snapshot
 * names a job by id and applies only if that job is known when it is replayed: a change to a job
 * that was since deleted, or that was rewritten further on by compaction, is simply superseded.
 *
 * <p>The byte layout of each record is in FORMAT.md; {@link RecordCodec} reads and writes it.
 * Priorities and second counts are unsigned 32-bit numbers kept in an {@code int}, as in the engine.
 */
public sealed interface BinlogRecord {

  /**
   * Everything needed to rebuild one job: written by put, and again by compaction when a live job
   * is rewritten forward ("migrated"). A reserved job is written as {@link SnapshotState#READY}.
   *
   * @param readyAtEpochMillis wall-clock time a delayed job becomes ready; 0 unless delayed
   * @param body not copied: what backs it must never change afterwards (the writer thread reads
   *     it into the frame, see {@link SnapshotBody})
   */
  record JobSnapshot(long id, String tube, SnapshotState state, int priority, int delaySeconds,
      long readyAtEpochMillis, int ttrSeconds, long createdEpochMillis, JobCounters counters,
      SnapshotBody body) implements BinlogRecord {

    public JobSnapshot {
      Objects.requireNonNull(tube, "tube");
      Objects.requireNonNull(state, "state");
      Objects.requireNonNull(counters, "counters");
      Objects.requireNonNull(body, "body");
    }

    /** A snapshot of {@code body} itself, not a copy: the caller must never modify the array afterwards. */
    public JobSnapshot(long id, String tube, SnapshotState state, int priority, int delaySeconds,
        long readyAtEpochMillis, int ttrSeconds, long createdEpochMillis, JobCounters counters, byte[] body) {
      this(id, tube, state, priority, delaySeconds, readyAtEpochMillis, ttrSeconds, createdEpochMillis, counters,
          SnapshotBody.of(body));
    }

    JobSnapshot withChange(SnapshotState newState, int newPriority, int newDelaySeconds,
        long newReadyAtEpochMillis, JobCounters newCounters) {
      return new JobSnapshot(id, tube, newState, newPriority, newDelaySeconds, newReadyAtEpochMillis,
          ttrSeconds, createdEpochMillis, newCounters, body);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof JobSnapshot j && id == j.id && tube.equals(j.tube) && state == j.state
          && priority == j.priority && delaySeconds == j.delaySeconds
          && readyAtEpochMillis == j.readyAtEpochMillis && ttrSeconds == j.ttrSeconds
          && createdEpochMillis == j.createdEpochMillis && counters.equals(j.counters)
          && body.length() == j.body.length() && Arrays.equals(body.toArray(), j.body.toArray());
    }

    @Override
    public int hashCode() {
      return Long.hashCode(id) * 31 + Arrays.hashCode(body.toArray());
    }

    @Override
    public String toString() {
      return "JobSnapshot[id=" + id + ", tube=" + tube + ", state=" + state + ", priority="
          + Integer.toUnsignedString(priority) + ", delaySeconds=" + Integer.toUnsignedString(delaySeconds)
          + ", readyAtEpochMillis=" + readyAtEpochMillis
          + ", ttrSeconds=" + Integer.toUnsignedString(ttrSeconds)
          + ", createdEpochMillis=" + createdEpochMillis + ", " + counters
          + ", body=" + body.length() + " bytes]";
    }
  }

  /** The job is gone (delete). */
  record Delete(long id) implements BinlogRecord {}

  /**
   * A reserved job was released: ready if {@code delaySeconds} is 0, otherwise delayed until
   * {@code readyAtEpochMillis}.
   */
  record Release(long id, int priority, int delaySeconds, long readyAtEpochMillis, JobCounters counters)
      implements BinlogRecord {}

  /** A reserved job was buried with a new priority. */
  record Bury(long id, int priority, JobCounters counters) implements BinlogRecord {}

  /** A buried or delayed job was kicked (kick or kick-job): it is ready now. */
  record Kick(long id, JobCounters counters) implements BinlogRecord {}

  /**
   * A job was reserved. Needed only when the job was delayed or buried before (reserve-job), so
   * that it comes back ready rather than in its old state; otherwise optional, for the counters.
   */
  record Reserve(long id, JobCounters counters) implements BinlogRecord {}

  /**
   * No job id below {@code nextJobId} may be issued again. Written first in every segment, so the
   * newest segment always bounds every id ever issued, even when every job was deleted.
   */
  record HighWater(long nextJobId) implements BinlogRecord {}

  /**
   * Every tube's settings as they stand after a change, the whole table ({@code "*"} included): the
   * last one in the log wins. Also written after the HighWater of every segment while the table is
   * not empty, so that compaction never deletes the one that is in force.
   *
   * @param settings tube name (or {@code "*"}) to its settings, in order; none is empty
   */
  record TubeSettingsTable(Map<String, TubeSettings> settings) implements BinlogRecord {
    public TubeSettingsTable {
      settings = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(settings));
    }
  }

  /**
   * Where job {@code id} stands toward its tube's maxReserves: the reserves it had when it was last
   * kicked ({@code reservesBase}; only those after count), and the tube it was dead-lettered from
   * ({@code deadLetteredFrom}, empty unless its maxReserves buried it). Written only with tube
   * settings, after the kick or the dead letter, and again after each later snapshot of the job.
   */
  record DeadLetterNote(long id, int reservesBase, String deadLetteredFrom) implements BinlogRecord {
    public DeadLetterNote {
      Objects.requireNonNull(deadLetteredFrom, "deadLetteredFrom");
    }
  }
}
