package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.store.SlotHeap;
import java.util.LinkedHashSet;

/** A named queue: its ready heap, delayed heap, buried FIFO, waiting reservers, pause and counters. */
final class Tube {
  final String name;
  /** This tube's number in the job records; reused once the tube is gone. */
  final int index;
  final SlotHeap ready;
  final SlotHeap delayed;
  final JobList buried;
  /**
   * The ready jobs in the order they became ready, each stamped with that time (in its deadline
   * field, unused while ready): the first one's wait is the tube's oldest-ready age, read in O(1).
   */
  final JobList readyOrder;
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

  Tube(String name, int index, JobTable table) {
    this.name = name;
    this.index = index;
    this.ready = new SlotHeap(table.memory()) {
      protected boolean less(int a, int b) { return table.isBefore(a, b); }
      protected int positionOf(int j) { return table.tubeHeapPosition(j); }
      protected void setPosition(int j, int p) { table.setTubeHeapPosition(j, p); }
    };
    this.delayed = new SlotHeap(table.memory()) {
      protected boolean less(int a, int b) { return table.isDueBefore(a, b); }
      protected int positionOf(int j) { return table.tubeHeapPosition(j); }
      protected void setPosition(int j, int p) { table.setTubeHeapPosition(j, p); }
    };
    this.buried = new JobList(table);
    this.readyOrder = new JobList(table);
  }

  /** Frees the heaps' off-heap arrays once the tube is gone. */
  void close() {
    ready.close();
    delayed.close();
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
