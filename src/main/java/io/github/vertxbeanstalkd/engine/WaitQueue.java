package io.github.vertxbeanstalkd.engine;

/**
 * The sessions blocked in a reserve on one tube, longest-waiting first. A ring of (session, wait
 * number) entries: a session that stops waiting leaves its entries behind, stale, and they are
 * skipped or compacted away, so reserves come and go without an object each (a linked set made
 * one per wait).
 */
final class WaitQueue {
  private Session[] sessions = new Session[4];
  /** The session's {@link Session#waitNumber()} when it joined: a later wait of it is a new entry. */
  private long[] waitNumbers = new long[4];
  private int head;
  /** Entries in the ring, stale ones included. */
  private int count;
  private int live;

  void add(Session s) {
    if (count == sessions.length) {
      resize(sessions.length * 2);
    }
    int slot = (head + count) & (sessions.length - 1);
    sessions[slot] = s;
    waitNumbers[slot] = s.waitNumber();
    count++;
    live++;
  }

  /** {@code s}, which waited here, stopped waiting ({@link Session#isWaiting()} is false now). */
  void remove(Session s) {
    live--;
    if (live == 0) {
      clear();
    } else if (count > 2 * live + 16) {
      // Stale entries are dropped at the head as it moves; far more of them than live ones means
      // the head does not move (no job comes), so drop them all now.
      resize(sessions.length);
    }
  }

  boolean isEmpty() {
    return live == 0;
  }

  int size() {
    return live;
  }

  /** The session that has waited longest; there must be one. */
  Session first() {
    while (isStale(head)) {
      sessions[head] = null;
      head = (head + 1) & (sessions.length - 1);
      count--;
    }
    return sessions[head];
  }

  private boolean isStale(int slot) {
    Session s = sessions[slot];
    return !s.isWaiting() || s.waitNumber() != waitNumbers[slot];
  }

  private void clear() {
    for (int i = 0; i < count; i++) {
      sessions[(head + i) & (sessions.length - 1)] = null;
    }
    head = 0;
    count = 0;
  }

  /** Copies the live entries, in order, into a ring of {@code capacity} (a power of two). */
  private void resize(int capacity) {
    Session[] s = new Session[capacity];
    long[] w = new long[capacity];
    int n = 0;
    for (int i = 0; i < count; i++) {
      int slot = (head + i) & (sessions.length - 1);
      if (!isStale(slot)) {
        s[n] = sessions[slot];
        w[n] = waitNumbers[slot];
        n++;
      }
    }
    sessions = s;
    waitNumbers = w;
    head = 0;
    count = n;
  }
}
