package io.github.vertxbeanstalkd.persistence;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.persistence.BinlogRecord.Bury;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Delete;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.JobSnapshot;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Kick;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Release;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Reserve;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * A stand-in for the queue engine: keeps each job's state as the engine would, appends the record
 * for every change, and rewrites the jobs compaction asks for, as the engine is told to.
 */
final class ModelEngine {
  static final long T0 = 1_700_000_000_000L;
  final LogHarness log;
  final long segmentSizeBytes;
  final TreeMap<Long, JobSnapshot> jobs = new TreeMap<>();
  long nextId;
  long lastSequence;
  long migrations;

  ModelEngine(LogHarness log, long segmentSizeBytes) {
    this.log = log;
    this.segmentSizeBytes = segmentSizeBytes;
    RecoveredLog recovered = log.binlog.takeRecovered();
    recovered.jobs().forEach(j -> jobs.put(j.id(), j));
    nextId = recovered.nextJobId();
  }

  long put(String tube, int priority, int bodyBytes) {
    long id = nextId++;
    String text = ("job " + id + " ").repeat(bodyBytes / 6 + 1).substring(0, bodyBytes);
    byte[] body = text.getBytes(StandardCharsets.US_ASCII);
    change(new JobSnapshot(id, tube, SnapshotState.READY, priority, 0, 0, 60, T0 + id, JobCounters.ZERO,
        body));
    return id;
  }

  void release(long id, int priority, int delaySeconds) {
    JobCounters after = counted(id, 1, 1, 0, 0);
    long readyAt = delaySeconds == 0 ? 0 : T0 + 1000L * delaySeconds;
    change(new Release(id, priority, delaySeconds, readyAt, after));
  }

  void bury(long id, int priority) {
    change(new Bury(id, priority, counted(id, 1, 0, 1, 0)));
  }

  void kick(long id) {
    change(new Kick(id, counted(id, 0, 0, 0, 1)));
  }

  void reserve(long id) {
    change(new Reserve(id, counted(id, 1, 0, 0, 0)));
  }

  /** The job's counters plus the given increments. */
  private JobCounters counted(long id, int reserves, int releases, int buries, int kicks) {
    JobCounters c = jobs.get(id).counters();
    return new JobCounters(c.reserves() + reserves, c.timeouts(), c.releases() + releases,
        c.buries() + buries, c.kicks() + kicks);
  }

  void delete(long id) {
    change(new Delete(id));
  }

  /** The tubes' settings become {@code table}; no job changes. */
  void settings(java.util.Map<String, io.github.vertxbeanstalkd.protocol.TubeSettings> table) {
    change(new BinlogRecord.TubeSettingsTable(table));
  }

  /** Job {@code id}'s standing toward maxReserves; no job changes. */
  void note(long id, int reservesBase, String deadLetteredFrom) {
    change(new BinlogRecord.DeadLetterNote(id, reservesBase, deadLetteredFrom));
  }

  /** What the engine does: apply, log, then rewrite what compaction asks for. */
  private void change(BinlogRecord r) {
    apply(r);
    lastSequence = log.append(r);
    for (long[] ids = log.binlog.jobsToMigrate(64); ids.length > 0; ids = log.binlog.jobsToMigrate(64)) {
      for (long id : ids) {
        lastSequence = log.append(jobs.get(id));
        migrations++;
      }
    }
    long bound = 2 * log.binlog.liveBytes() + 2 * segmentSizeBytes;
    long diskBytes = log.binlog.diskBytes();
    assertTrue(diskBytes <= bound, "log of " + diskBytes + " bytes, bound " + bound);
  }

  private void apply(BinlogRecord r) {
    if (r instanceof JobSnapshot j) {
      jobs.put(j.id(), j);
    } else if (r instanceof Delete d) {
      jobs.remove(d.id());
    } else if (r instanceof Release rel) {
      SnapshotState s = rel.delaySeconds() == 0 ? SnapshotState.READY : SnapshotState.DELAYED;
      JobSnapshot j = jobs.get(rel.id());
      jobs.put(rel.id(),
          j.withChange(s, rel.priority(), rel.delaySeconds(), rel.readyAtEpochMillis(), rel.counters()));
    } else if (r instanceof Bury b) {
      JobSnapshot j = jobs.get(b.id());
      jobs.put(b.id(), j.withChange(SnapshotState.BURIED, b.priority(), j.delaySeconds(), 0, b.counters()));
    } else if (r instanceof Kick k) {
      JobSnapshot j = jobs.get(k.id());
      jobs.put(k.id(), j.withChange(SnapshotState.READY, j.priority(), j.delaySeconds(), 0, k.counters()));
    } else if (r instanceof Reserve res) {
      JobSnapshot j = jobs.get(res.id());
      jobs.put(res.id(), j.withChange(SnapshotState.READY, j.priority(), j.delaySeconds(), 0,
          res.counters()));
    }
  }

  List<JobSnapshot> expected() {
    return new ArrayList<>(jobs.values());
  }

  void awaitDurable() {
    log.awaitDurable(lastSequence);
  }
}
