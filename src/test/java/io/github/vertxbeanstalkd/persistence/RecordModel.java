package io.github.vertxbeanstalkd.persistence;

import io.github.vertxbeanstalkd.persistence.BinlogRecord.Bury;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Delete;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.HighWater;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.JobSnapshot;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Kick;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Release;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Reserve;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * What replay must rebuild from a sequence of records, restated from FORMAT.md ("Replay") apart from
 * {@link Replay}, so that a test can say what a log missing some records comes back as.
 */
final class RecordModel {
  private final TreeMap<Long, JobSnapshot> jobs = new TreeMap<>();
  private long nextJobId = 1;

  void apply(BinlogRecord r) {
    if (r instanceof HighWater h) {
      nextJobId = Math.max(nextJobId, h.nextJobId());
      return;
    }
    if (r instanceof BinlogRecord.TubeSettingsTable || r instanceof BinlogRecord.DeadLetterNote) {
      // FORMAT.md: neither changes a job nor the ids.
      return;
    }
    long id = idOf(r);
    nextJobId = Math.max(nextJobId, id + 1);
    JobSnapshot j = jobs.get(id);
    if (r instanceof JobSnapshot snapshot) {
      jobs.put(id, snapshot);
    } else if (j == null) {
      // FORMAT.md: a change to an unknown job was superseded, and is ignored.
      return;
    } else if (r instanceof Delete) {
      jobs.remove(id);
    } else if (r instanceof Release rel) {
      boolean isDelayed = rel.delaySeconds() != 0;
      jobs.put(id, j.withChange(isDelayed ? SnapshotState.DELAYED : SnapshotState.READY, rel.priority(),
          rel.delaySeconds(), isDelayed ? rel.readyAtEpochMillis() : 0, rel.counters()));
    } else if (r instanceof Bury b) {
      jobs.put(id, j.withChange(SnapshotState.BURIED, b.priority(), j.delaySeconds(), 0, b.counters()));
    } else if (r instanceof Kick k) {
      jobs.put(id, j.withChange(SnapshotState.READY, j.priority(), j.delaySeconds(), 0, k.counters()));
    } else if (r instanceof Reserve res) {
      jobs.put(id, j.withChange(SnapshotState.READY, j.priority(), j.delaySeconds(), 0, res.counters()));
    }
  }

  private static long idOf(BinlogRecord r) {
    if (r instanceof JobSnapshot j) {
      return j.id();
    } else if (r instanceof Delete d) {
      return d.id();
    } else if (r instanceof Release rel) {
      return rel.id();
    } else if (r instanceof Bury b) {
      return b.id();
    } else if (r instanceof Kick k) {
      return k.id();
    }
    return ((Reserve) r).id();
  }

  List<JobSnapshot> jobs() {
    return new ArrayList<>(jobs.values());
  }

  long nextJobId() {
    return nextJobId;
  }
}
