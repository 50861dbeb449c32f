package io.github.vertxbeanstalkd.engine;

import java.util.LinkedHashSet;

/** A named queue: its ready heap, delayed heap, buried FIFO, waiting reservers, pause and counters. */
final class Tube {
  final String name;
  final IndexedHeap<Job> ready = new IndexedHeap<>() {
    boolean less(Job a, Job b) { return a.isBefore(b); }
    int positionOf(Job j) { return j.tubeHeapPosition; }
    void setPosition(Job j, int p) { j.tubeHeapPosition = p; }
  };
  final IndexedHeap<Job> delayed = new IndexedHeap<>() {
    boolean less(Job a, Job b) { return a.isDueBefore(b); }
    int positionOf(Job j) { return j.tubeHeapPosition; }
    void setPosition(Job j, int p) { j.tubeHeapPosition = p; }
  };
  final JobList buried = new JobList();
  /** Sessions blocked in a reserve that watch this tube, roughly first come first served. */
  final LinkedHashSet<Session> waiting = new LinkedHashSet<>();

  int reservedCount;
  int urgentReadyCount;
  long totalJobs;
  int usingCount;
  int watchingCount;
  long deleteCount;
  long pauseCount;
  /** The pause asked for, in seconds, and when it ends; 0 when the tube is not paused. */
  long pauseSeconds;
  long pauseEndNanos;
  /** Position in the engine's list of tubes (list-tubes order). */
  int listPosition;

  Tube(String name) {
    this.name = name;
  }

  boolean isPaused(long nowNanos) {
    return pauseEndNanos > nowNanos;
  }

  boolean isPaused() {
    return pauseEndNanos != 0;
  }

  int jobCount() {
    return ready.size() + delayed.size() + buried.size() + reservedCount;
  }

  /** BEHAVIOURS.md 9: a tube lives while a job, a user or a watcher refers to it. */
  boolean isReferenced() {
    return jobCount() > 0 || usingCount > 0 || watchingCount > 0;
  }
}
