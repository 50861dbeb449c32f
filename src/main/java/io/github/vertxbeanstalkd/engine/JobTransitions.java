package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.persistence.Binlog;
import io.github.vertxbeanstalkd.persistence.BinlogRecord;
import io.github.vertxbeanstalkd.persistence.JobCounters;
import io.github.vertxbeanstalkd.persistence.RecoveredLog;
import io.github.vertxbeanstalkd.persistence.SnapshotState;
import io.github.vertxbeanstalkd.protocol.JobState;
import io.github.vertxbeanstalkd.protocol.Reply;

/**
 * Every job and every change of a job's state, one explicit step per method: store, ready,
 * reserve, unreserve, delay, bury, kick, expire, remove. Each change that must survive a restart
 * is appended to the {@link Binlog} here, and nowhere else. Changes a restart undoes anyway (a
 * reservation, its TTR, a touch) are not logged: reserved jobs come back ready.
 */
final class JobTransitions {
  /** Told when a job becomes ready, so blocked reservers can be served at once. */
  interface ReadyListener {
    void readied(Tube tube, long nowNanos);
  }

  private final JobIndex index = new JobIndex();
  /** Delayed jobs (until ready) and reserved jobs (until their TTR ends), soonest first. */
  private final IndexedHeap<Job> deadlines = new IndexedHeap<>() {
    boolean less(Job a, Job b) { return a.isDueBefore(b); }
    int positionOf(Job j) { return j.deadlineHeapPosition; }
    void setPosition(Job j, int p) { j.deadlineHeapPosition = p; }
  };
  private final Tubes tubes;
  private final ReadyListener listener;
  private final Binlog binlog;
  private final Clock clock;
  long nextJobId = 1;
  long totalJobs;
  long jobTimeouts;
  /** The sequence of the latest record appended; replies wait until the log has made it durable. */
  long lastSequence;

  JobTransitions(Tubes tubes, ReadyListener listener, Binlog binlog, Clock clock) {
    this.tubes = tubes;
    this.listener = listener;
    this.binlog = binlog;
    this.clock = clock;
  }

  Job get(long id) {
    return index.get(id);
  }

  /** BEHAVIOURS.md 4: ids go up by one for every put that passes its line checks. */
  long takeId() {
    return nextJobId++;
  }

  /** The job whose deadline (delay end or TTR end) comes first, or null. */
  Job nextDue() {
    return deadlines.peek();
  }

  void store(Job j, long now) {
    index.put(j);
    j.tube.totalJobs++;
    totalJobs++;
    if (j.delaySeconds != 0) {
      delay(j, now);
    } else {
      makeReady(j, now);
    }
    log(snapshot(j, now));
  }

  /** Compaction: writes a live job again, whole, so that older segments can go. */
  void migrate(Job j, long now) {
    log(snapshot(j, now));
  }

  /** Rebuilds every job the binlog replayed, without logging them again (BEHAVIOURS.md flags: -b). */
  void restore(RecoveredLog recovered, long now) {
    long wallNow = clock.epochMillis();
    for (BinlogRecord.JobSnapshot snap : recovered.jobs()) {
      Tube tube = tubes.getOrCreate(snap.tube());
      long createdNanos = now - Math.max(0, wallNow - snap.createdEpochMillis()) * 1_000_000;
      Job j = new Job(snap.id(), tube, snap.body(), createdNanos, snap.priority(), snap.delaySeconds(),
          snap.ttrSeconds());
      j.reserves = snap.counters().reserves();
      j.timeouts = snap.counters().timeouts();
      j.releases = snap.counters().releases();
      j.buries = snap.counters().buries();
      j.kicks = snap.counters().kicks();
      JobState state = switch (snap.state()) {
        case DELAYED -> JobState.DELAYED;
        case BURIED -> JobState.BURIED;
        default -> JobState.READY;
      };
      // A delayed job keeps its wall-clock deadline; one that passed while we were down is due now.
      long deadline = now + Math.max(0, snap.readyAtEpochMillis() - wallNow) * 1_000_000;
      restore(j, state, deadline, now);
    }
    nextJobId = Math.max(nextJobId, recovered.nextJobId());
  }

  private void restore(Job j, JobState state, long deadlineNanos, long now) {
    index.put(j);
    j.tube.totalJobs++;
    totalJobs++;
    nextJobId = Math.max(nextJobId, j.id + 1);
    if (state == JobState.DELAYED) {
      j.state = JobState.DELAYED;
      j.deadlineNanos = deadlineNanos;
      j.tube.delayed.add(j);
      deadlines.add(j);
    } else if (state == JobState.BURIED) {
      j.state = JobState.BURIED;
      j.tube.buried.addLast(j);
    } else {
      makeReady(j, now);
    }
  }

  /** A delayed job's time has come, or a reserved job's TTR ran out. */
  void expire(Job j, long now) {
    if (j.state == JobState.DELAYED) {
      unDelay(j);
    } else {
      // BEHAVIOURS.md 6: a TTR expiry counts a timeout and keeps the reserve count.
      j.timeouts++;
      jobTimeouts++;
      unreserve(j);
    }
    makeReady(j, now);
  }

  Reply reserve(Session s, Job j, long now) {
    boolean wasQueued = j.state != JobState.READY;
    if (j.state == JobState.READY) {
      unReady(j);
    } else if (j.state == JobState.DELAYED) {
      unDelay(j);
    } else if (j.state == JobState.BURIED) {
      unBury(j);
    } else {
      throw new IllegalStateException("job " + j.id + " is already reserved");
    }
    j.state = JobState.RESERVED;
    j.reservedBy = s;
    j.reserves++;
    if (wasQueued) {
      // reserve-job took a delayed or buried job: after a restart it must come back ready.
      log(new BinlogRecord.Reserve(j.id, counters(j)));
    }
    j.deadlineNanos = now + j.ttrNanos();
    deadlines.add(j);
    s.reserved.addLast(j);
    j.tube.reservedCount++;
    return Reply.JobBody.reserved(j.id, j.body, j.tube.name);
  }

  void release(Job j, int priority, int delaySeconds, long now) {
    j.priority = priority;
    j.delaySeconds = delaySeconds;
    j.releases++;
    unreserve(j);
    if (delaySeconds != 0) {
      delay(j, now);
    } else {
      makeReady(j, now);
    }
    log(new BinlogRecord.Release(j.id, priority, delaySeconds, readyAtEpochMillis(j, now), counters(j)));
  }

  /** The holder disconnected: back to ready, counting neither a timeout nor a release. */
  void returnToReady(Job j, long now) {
    unreserve(j);
    makeReady(j, now);
  }

  void bury(Job j, int priority) {
    j.priority = priority;
    unreserve(j);
    j.state = JobState.BURIED;
    j.buries++;
    j.tube.buried.addLast(j);
    log(new BinlogRecord.Bury(j.id, priority, counters(j)));
  }

  void touch(Job j, long now) {
    j.deadlineNanos = now + j.ttrNanos();
    deadlines.update(j);
  }

  void kick(Job j, long now) {
    if (j.state == JobState.BURIED) {
      unBury(j);
    } else {
      unDelay(j);
    }
    j.kicks++;
    makeReady(j, now);
    log(new BinlogRecord.Kick(j.id, counters(j)));
  }

  void remove(Job j) {
    switch (j.state) {
      case READY -> unReady(j);
      case RESERVED -> unreserve(j);
      case DELAYED -> unDelay(j);
      case BURIED -> unBury(j);
    }
    index.remove(j.id);
    tubes.deleteIfUnused(j.tube);
    log(new BinlogRecord.Delete(j.id));
  }

  private void log(BinlogRecord r) {
    long sequence = binlog.append(r);
    if (sequence > lastSequence) {
      lastSequence = sequence;
    }
  }

  private BinlogRecord.JobSnapshot snapshot(Job j, long now) {
    SnapshotState state = switch (j.state) {
      case DELAYED -> SnapshotState.DELAYED;
      case BURIED -> SnapshotState.BURIED;
      default -> SnapshotState.READY;
    };
    long createdEpochMillis = clock.epochMillis() - (now - j.createdNanos) / 1_000_000;
    return new BinlogRecord.JobSnapshot(j.id, j.tube.name, state, j.priority, j.delaySeconds,
        readyAtEpochMillis(j, now), j.ttrSeconds, createdEpochMillis, counters(j), j.body);
  }

  /** A delayed job's deadline as wall-clock time, so that it survives a restart; 0 otherwise. */
  private long readyAtEpochMillis(Job j, long now) {
    return j.state == JobState.DELAYED ? clock.epochMillis() + (j.deadlineNanos - now) / 1_000_000 : 0;
  }

  private static JobCounters counters(Job j) {
    return new JobCounters(j.reserves, j.timeouts, j.releases, j.buries, j.kicks);
  }

  private void makeReady(Job j, long now) {
    j.state = JobState.READY;
    j.tube.ready.add(j);
    if (j.isUrgent()) {
      j.tube.urgentReadyCount++;
    }
    listener.readied(j.tube, now);
  }

  private void unReady(Job j) {
    j.tube.ready.remove(j);
    if (j.isUrgent()) {
      j.tube.urgentReadyCount--;
    }
  }

  private void unreserve(Job j) {
    deadlines.remove(j);
    j.reservedBy.reserved.remove(j);
    j.reservedBy = null;
    j.tube.reservedCount--;
  }

  private void delay(Job j, long now) {
    j.state = JobState.DELAYED;
    j.deadlineNanos = now + j.delayNanos();
    j.tube.delayed.add(j);
    deadlines.add(j);
  }

  private void unDelay(Job j) {
    j.tube.delayed.remove(j);
    deadlines.remove(j);
  }

  private void unBury(Job j) {
    j.tube.buried.remove(j);
  }
}
