package io.github.vertxbeanstalkd.engine;

/**
 * A FIFO of job slots (a tube's buried or ready jobs, or a session's reserved jobs) linked through the jobs'
 * own records, with O(1) removal.
 */
final class JobList {
  private final JobTable table;
  private int head = JobTable.NONE;
  private int tail = JobTable.NONE;
  private int size;

  JobList(JobTable table) {
    this.table = table;
  }

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  /** The oldest slot, or {@link JobTable#NONE}. */
  int first() {
    return head;
  }

  /** The slot after {@code j}, or {@link JobTable#NONE}. */
  int after(int j) {
    return table.next(j);
  }

  void addLast(int j) {
    table.setPrevious(j, tail);
    table.setNext(j, JobTable.NONE);
    if (tail == JobTable.NONE) {
      head = j;
    } else {
      table.setNext(tail, j);
    }
    tail = j;
    size++;
  }

  void remove(int j) {
    int previous = table.previous(j);
    int next = table.next(j);
    if (previous == JobTable.NONE) {
      head = next;
    } else {
      table.setNext(previous, next);
    }
    if (next == JobTable.NONE) {
      tail = previous;
    } else {
      table.setPrevious(next, previous);
    }
    table.setPrevious(j, JobTable.NONE);
    table.setNext(j, JobTable.NONE);
    size--;
  }
}
