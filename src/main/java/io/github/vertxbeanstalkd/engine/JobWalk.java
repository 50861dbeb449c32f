package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.bus.JobCursor;
import io.github.vertxbeanstalkd.protocol.JobState;

/**
 * One listing's picture of a tube's jobs in one state, sorted as the tube serves them, a little at
 * a time. The tube's slots are copied in one turn (a bulk copy; the buried list, which has no
 * array, is followed link by link); their keys are then read a slice per call into a min-heap of
 * its own, on the Java heap, and the heap hands out keys in order only as far as pages ask
 * (heapsort in place: the k-th least key sits at {@code count - 1 - k}). A job's slot never
 * changes, so a job in that state all along is never missed; a slot freed and reused meanwhile
 * yields a key that a page checks against the job before listing it.
 */
final class JobWalk {
  final int tubeIndex;
  final JobState state;
  /** The slots to read keys from, dropped once read; null for a buried walk, which follows the tube's list. */
  private int[] slots;
  private int slotsRead;
  /** Buried walk: the last slot read and its job's id, where the list is followed from; NONE before the first. */
  private int lastBuriedSlot = JobTable.NONE;
  private long lastBuriedId;
  private boolean isBuilt;
  private long[] orders;
  private long[] ids;
  /** Keys read: the heap is {@code [0, heapSize)}, the keys handed out in order are {@code [heapSize, count)}. */
  private int count;
  private int heapSize;
  long lastUsedNanos;

  private JobWalk(int tubeIndex, JobState state, int[] slots, int capacity) {
    this.tubeIndex = tubeIndex;
    this.state = state;
    this.slots = slots;
    this.orders = new long[Math.max(capacity, 1)];
    this.ids = new long[Math.max(capacity, 1)];
  }

  /** The heap this walk holds: two keys a job, and the slots it copied until they are read. */
  long heapBytes() {
    return 16L * orders.length + (slots == null ? 0 : 4L * slots.length);
  }

  /** A walk over {@code t}'s jobs in {@code state}; copies the slots of its heap (or of every deadline) now. */
  static JobWalk of(Tube t, JobState state, JobTransitions jobs) {
    return switch (state) {
      case READY -> fromSlots(t, state, t.copyReadySlots());
      case DELAYED -> fromSlots(t, state, t.copyDelayedSlots());
      // The tube keeps no structure of its reserved jobs: the deadline heap holds them with every tube's delayed jobs.
      case RESERVED -> fromSlots(t, state, jobs.copyDeadlineSlots());
      case BURIED -> new JobWalk(t.index, state, null, t.buriedCount());
    };
  }

  private static JobWalk fromSlots(Tube t, JobState state, int[] slots) {
    return new JobWalk(t.index, state, slots, slots.length);
  }

  /** The key the tube orders job {@code j} by in this walk's state; a buried job's is its rank, kept by the walk. */
  static long orderOf(JobTable table, int j, JobState state) {
    return state == JobState.READY ? Integer.toUnsignedLong(table.priority(j)) : table.deadlineNanos(j);
  }

  /** Whether every key is read; else reads more, one unit of {@code budget} a job, and answers whether it now is. */
  boolean build(JobTable table, Tube t, WorkBudget budget) {
    while (!isBuilt && budget.take()) {
      isBuilt = state == JobState.BURIED ? readBuried(table, t) : readSlot(table);
    }
    if (isBuilt && slots != null) {
      slots = null;
      if (count < orders.length / 2) {
        // A reserved walk sized for every tube's deadlines keeps room for its own jobs only.
        orders = java.util.Arrays.copyOf(orders, Math.max(count, 1));
        ids = java.util.Arrays.copyOf(ids, Math.max(count, 1));
      }
    }
    return isBuilt;
  }

  /** Reads one slot's key; true once none is left. */
  private boolean readSlot(JobTable table) {
    if (slotsRead == slots.length) {
      return true;
    }
    int j = slots[slotsRead++];
    if (table.isLive(j) && table.state(j) == state && table.tube(j) == tubeIndex) {
      add(orderOf(table, j, state), table.id(j));
    }
    return slotsRead == slots.length;
  }

  /** Follows the buried list one job; true once its end, or the length it had when the walk began, is reached. */
  private boolean readBuried(JobTable table, Tube t) {
    if (count == orders.length) {
      return true;
    }
    int j;
    if (lastBuriedSlot == JobTable.NONE) {
      j = t.firstBuried();
    } else if (isStillBuried(table, lastBuriedSlot, lastBuriedId)) {
      j = t.buriedAfter(lastBuriedSlot);
    } else {
      // The job read last left the list (kicked, deleted): go on after the latest one read that is still there.
      j = t.firstBuried();
      for (int k = count - 1; k >= 0; k--) {
        int s = table.find(ids[k]);
        if (isStillBuried(table, s, ids[k])) {
          j = t.buriedAfter(s);
          break;
        }
      }
    }
    if (j == JobTable.NONE) {
      return true;
    }
    lastBuriedSlot = j;
    lastBuriedId = table.id(j);
    add(count, lastBuriedId);
    return count == orders.length;
  }

  private boolean isStillBuried(JobTable table, int j, long id) {
    return j != JobTable.NONE && table.isLive(j) && table.id(j) == id && table.state(j) == JobState.BURIED
        && table.tube(j) == tubeIndex;
  }

  private void add(long order, long id) {
    int at = count++;
    heapSize++;
    while (at > 0) {
      int parent = (at - 1) >>> 1;
      if (!less(order, id, orders[parent], ids[parent])) {
        break;
      }
      orders[at] = orders[parent];
      ids[at] = ids[parent];
      at = parent;
    }
    orders[at] = order;
    ids[at] = id;
  }

  /** Keys handed out in order so far. */
  int sortedCount() {
    return count - heapSize;
  }

  /** Whether every key has been handed out: {@link #sortedCount()} is all there is. */
  boolean isSorted() {
    return isBuilt && heapSize == 0;
  }

  long order(int k) {
    return orders[count - 1 - k];
  }

  long id(int k) {
    return ids[count - 1 - k];
  }

  JobCursor key(int k) {
    return new JobCursor(order(k), id(k));
  }

  /** Hands out the next key in order; the walk must be built and not yet sorted. */
  void sortOne() {
    heapSize--;
    long order = orders[0];
    long id = ids[0];
    long lastOrder = orders[heapSize];
    long lastId = ids[heapSize];
    int at = 0;
    int half = heapSize >>> 1;
    while (at < half) {
      int child = 2 * at + 1;
      if (child + 1 < heapSize && less(orders[child + 1], ids[child + 1], orders[child], ids[child])) {
        child++;
      }
      if (!less(orders[child], ids[child], lastOrder, lastId)) {
        break;
      }
      orders[at] = orders[child];
      ids[at] = ids[child];
      at = child;
    }
    if (heapSize > 0) {
      orders[at] = lastOrder;
      ids[at] = lastId;
    }
    orders[heapSize] = order;
    ids[heapSize] = id;
  }

  /** The first sorted index whose key is after {@code cursor}; {@link #sortedCount()} when none is yet. */
  int firstAfter(JobCursor cursor) {
    int lo = 0;
    int hi = sortedCount();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (less(cursor.order(), cursor.id(), order(mid), id(mid))) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  /** The last sorted index whose key is before {@code cursor}, or -1. */
  int lastBefore(JobCursor cursor) {
    int lo = 0;
    int hi = sortedCount();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (less(order(mid), id(mid), cursor.order(), cursor.id())) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo - 1;
  }

  private static boolean less(long orderA, long idA, long orderB, long idB) {
    return orderA < orderB || (orderA == orderB && idA < idB);
  }
}
