package io.github.vertxbeanstalkd.engine;

/** An intrusive FIFO of jobs (a tube's buried jobs, or a session's reserved jobs) with O(1) removal. */
final class JobList {
  private Job head;
  private Job tail;
  private int size;

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  Job first() {
    return head;
  }

  void addLast(Job job) {
    job.previous = tail;
    job.next = null;
    if (tail == null) {
      head = job;
    } else {
      tail.next = job;
    }
    tail = job;
    size++;
  }

  void remove(Job job) {
    if (job.previous == null) {
      head = job.next;
    } else {
      job.previous.next = job.next;
    }
    if (job.next == null) {
      tail = job.previous;
    } else {
      job.next.previous = job.previous;
    }
    job.previous = null;
    job.next = null;
    size--;
  }
}
