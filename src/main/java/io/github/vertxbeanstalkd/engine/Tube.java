package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.store.SlotHeap;

/**
 * A named queue: its ready heap, delayed heap, buried FIFO, waiting reservers, pause and counters.
 *
 * @see <a href="{@docRoot}/../spec/BEHAVIOURS.html">BEHAVIOURS.md</a>
 */
final class Tube {
  final String name;
  /** This tube's number in the job records; reused once the tube is gone. */
  final int index;
  private final JobTable table;
  private final SlotHeap ready;
  private final SlotHeap delayed;
  private final JobList buried;
  /**
   * The ready jobs in the order they became ready, each stamped with that time (in its deadline
   * field, unused while ready): the first one's wait is the tube's oldest-ready age, read in O(1).
   */
  private final JobList readyOrder;
  /** Sessions blocked in a reserve that watch this tube, roughly first come first served. */
  private final WaitQueue waiting = new WaitQueue();
  /** Position in the list of tubes with waiters ({@link Sessions}), or -1. */
  int waitersListPosition = -1;

  private int reservedCount;
  private int urgentReadyCount;
  private long totalJobs;
  /** Body bytes of the jobs in this tube, every state: what maxBytes caps. */
  private long bodyBytes;
  private int usingCount;
  private int watchingCount;
  private long deleteCount;
  /** Reserves of this tube's jobs since the start: the admin page's reserve rate (stats-tube has no key for it). */
  private long reserveCount;
  private long pauseCount;
  /** The pause asked for, in seconds, and when it ends; 0 when the tube is not paused. */
  private long pauseSeconds;
  private long pauseEndNanos;
  /** Position in the engine's list of tubes (list-tubes order). */
  private int listPosition;

  Tube(String name, int index, JobTable table) {
    this.name = name;
    this.index = index;
    this.table = table;
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

  // ---------------------------------------------------------------- jobs

  /** A job was stored in this tube. */
  void countJob() {
    totalJobs++;
  }

  /** Replay: a job counted when its snapshot was read is deleted further on in the log. */
  void uncountJob() {
    totalJobs--;
  }

  /** A job of {@code bytes} body bytes entered this tube (stored, restored, or moved here). */
  void addBody(long bytes) {
    bodyBytes += bytes;
  }

  /** A job of {@code bytes} body bytes left this tube. */
  void removeBody(long bytes) {
    bodyBytes -= bytes;
  }

  long bodyBytes() {
    return bodyBytes;
  }

  /** {@code j} became ready at {@code nowNanos}, the time its deadline field keeps while ready. */
  void addReady(int j, long nowNanos) {
    table.setDeadlineNanos(j, nowNanos);
    ready.add(j);
    readyOrder.addLast(j);
    if (table.isUrgent(j)) {
      urgentReadyCount++;
    }
  }

  void removeReady(int j) {
    ready.remove(j);
    readyOrder.remove(j);
    if (table.isUrgent(j)) {
      urgentReadyCount--;
    }
  }

  void addDelayed(int j) {
    delayed.add(j);
  }

  void removeDelayed(int j) {
    delayed.remove(j);
  }

  void addBuried(int j) {
    buried.addLast(j);
  }

  void removeBuried(int j) {
    buried.remove(j);
  }

  void addReserved() {
    reservedCount++;
  }

  void removeReserved() {
    reservedCount--;
  }

  void countDelete() {
    deleteCount++;
  }

  void countReserve() {
    reserveCount++;
  }

  /** The best ready job, or {@link JobTable#NONE}. */
  int bestReady() {
    return ready.peek();
  }

  /** The delayed job due first, or {@link JobTable#NONE}. */
  int firstDelayed() {
    return delayed.peek();
  }

  /** The delayed job at the end of the heap (in no particular order), or {@link JobTable#NONE}. */
  int lastDelayed() {
    return delayed.isEmpty() ? JobTable.NONE : delayed.get(delayed.size() - 1);
  }

  /** The ready job at a heap position, 0 to readyCount() - 1, in no particular order. */
  int readyAt(int position) {
    return ready.get(position);
  }

  /** The delayed job at a heap position, 0 to delayedCount() - 1, in no particular order. */
  int delayedAt(int position) {
    return delayed.get(position);
  }

  /** The job buried first, or {@link JobTable#NONE}. */
  int firstBuried() {
    return buried.first();
  }

  /** The ready heap's slots, in no particular order: a listing's picture of them. */
  int[] copyReadySlots() {
    return ready.copySlots();
  }

  /** The delayed heap's slots, in no particular order: a listing's picture of them. */
  int[] copyDelayedSlots() {
    return delayed.copySlots();
  }

  /** The job buried after {@code j}, which is buried here, or {@link JobTable#NONE}. */
  int buriedAfter(int j) {
    return buried.after(j);
  }

  /** The ready job that has waited longest, or {@link JobTable#NONE}. */
  int oldestReady() {
    return readyOrder.first();
  }

  boolean hasBuried() {
    return !buried.isEmpty();
  }

  boolean hasDelayed() {
    return !delayed.isEmpty();
  }

  int readyCount() {
    return ready.size();
  }

  int urgentCount() {
    return urgentReadyCount;
  }

  int reservedCount() {
    return reservedCount;
  }

  int delayedCount() {
    return delayed.size();
  }

  int buriedCount() {
    return buried.size();
  }

  long totalJobs() {
    return totalJobs;
  }

  long deleteCount() {
    return deleteCount;
  }

  long reserveCount() {
    return reserveCount;
  }

  int jobCount() {
    return ready.size() + delayed.size() + buried.size() + reservedCount;
  }

  // ---------------------------------------------------------------- sessions

  void addUser() {
    usingCount++;
  }

  void removeUser() {
    usingCount--;
  }

  void addWatcher() {
    watchingCount++;
  }

  void removeWatcher() {
    watchingCount--;
  }

  int usingCount() {
    return usingCount;
  }

  int watchingCount() {
    return watchingCount;
  }

  void addWaiter(Session s) {
    waiting.add(s);
  }

  /** True when no session waits here any more; {@code s} has stopped waiting. */
  boolean removeWaiter(Session s) {
    waiting.remove(s);
    return waiting.isEmpty();
  }

  boolean hasWaiters() {
    return !waiting.isEmpty();
  }

  int waitingCount() {
    return waiting.size();
  }

  /** The session that has waited here longest; there must be one. */
  Session firstWaiter() {
    return waiting.first();
  }

  /** BEHAVIOURS.md 9: a tube lives while a job, a user or a watcher refers to it. */
  boolean isReferenced() {
    return jobCount() > 0 || usingCount > 0 || watchingCount > 0;
  }

  // ---------------------------------------------------------------- pause

  /** pause-tube: {@code seconds} from now, ending at {@code endNanos}; 0 and 0 end a pause. */
  void pause(long seconds, long endNanos) {
    pauseSeconds = seconds;
    pauseEndNanos = endNanos;
  }

  void countPause() {
    pauseCount++;
  }

  long pauseCount() {
    return pauseCount;
  }

  boolean isPaused(long nowNanos) {
    return pauseEndNanos > nowNanos;
  }

  boolean isPaused() {
    return pauseEndNanos != 0;
  }

  long pauseSeconds() {
    return pauseSeconds;
  }

  long pauseEndNanos() {
    return pauseEndNanos;
  }

  /** Whole seconds of the pause left at {@code nowNanos}; 0 when not paused. */
  long pauseSecondsLeft(long nowNanos) {
    return isPaused(nowNanos) ? (pauseEndNanos - nowNanos) / Clock.SECOND_NANOS : 0;
  }

  int listPosition() {
    return listPosition;
  }

  void moveTo(int listPosition) {
    this.listPosition = listPosition;
  }
}
