package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.protocol.JobState;
import io.github.vertxbeanstalkd.protocol.Reply;

/**
 * Every job and every change of a job's state, one explicit step per method: store, ready,
 * reserve, unreserve, delay, bury, kick, expire, remove. This is the one place a write-ahead log
 * has to listen to.
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
  long nextJobId = 1;
  long totalJobs;
  long jobTimeouts;

  JobTransitions(Tubes tubes, ReadyListener listener) {
    this.tubes = tubes;
    this.listener = listener;
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
    j.deadlineNanos = now + j.ttrNanos();
    deadlines.add(j);
    s.reserved.addLast(j);
    j.tube.reservedCount++;
    return Reply.JobBody.reserved(j.id, j.body);
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
