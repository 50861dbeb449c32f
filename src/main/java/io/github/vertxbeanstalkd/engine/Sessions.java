package io.github.vertxbeanstalkd.engine;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Every client's session (connections and event-bus sessions), the ones blocked in a reserve, and
 * when each must be woken. Only TCP connections count as connections in stats.
 */
final class Sessions {
  private final JobTable table;
  private final HashMap<Object, Session> byId = new HashMap<>();
  /** Open sessions by {@link Session#index}, the number job records name their holder by. */
  private final Roster<Session> byIndex = new Roster<>();
  private final LinkedHashSet<Tube> tubesWithWaiters = new LinkedHashSet<>();
  private final IndexedHeap<Session> wakes = new IndexedHeap<>() {
    boolean less(Session a, Session b) { return a.wakeNanos < b.wakeNanos; }
    int positionOf(Session s) { return s.wakeHeapPosition; }
    void setPosition(Session s, int p) { s.wakeHeapPosition = p; }
  };
  private int waitingCount;
  private long totalConnections;
  /** Connections closed at once because maxConnections were open. */
  long rejectedConnections;
  private int connectionCount;

  Sessions(JobTable table) {
    this.table = table;
  }

  Session open(Object key, boolean isBusSession) {
    Session s = new Session(key, isBusSession, table);
    Session old = byId.put(key, s);
    if (old != null) {
      byId.put(key, old);
      throw new IllegalStateException("connection " + key + " is already open");
    }
    s.index = byIndex.take();
    byIndex.set(s.index, s);
    if (!isBusSession) {
      totalConnections++;
      connectionCount++;
    }
    return s;
  }

  Session get(Object key) {
    return byId.get(key);
  }

  /** The open session with that number (a job's holder). */
  Session at(int index) {
    return byIndex.at(index);
  }

  /** A session that is not open: it only carries an end notice back to its sender. */
  Session detached(Object key) {
    Session s = new Session(key, true, table);
    s.isClosed = true;
    return s;
  }

  void remove(Session s) {
    if (byId.remove(s.key) == null) {
      return;
    }
    if (!s.isBusSession) {
      connectionCount--;
    }
    byIndex.give(s.index);
  }


  Collection<Session> all() {
    return byId.values();
  }

  /** Open sessions: connections and event-bus sessions. */
  int count() {
    return byId.size();
  }

  int connectionCount() {
    return connectionCount;
  }

  long totalConnections() {
    return totalConnections;
  }

  int waitingCount() {
    return waitingCount;
  }

  Set<Tube> tubesWithWaiters() {
    return tubesWithWaiters;
  }

  void park(Session s, long timeoutNanos) {
    s.isWaiting = true;
    s.waitTimeoutNanos = timeoutNanos;
    for (Tube t : s.watched) {
      t.waiting.add(s);
      tubesWithWaiters.add(t);
    }
    waitingCount++;
  }

  void unpark(Session s) {
    s.isWaiting = false;
    for (Tube t : s.watched) {
      t.waiting.remove(s);
      if (t.waiting.isEmpty()) {
        tubesWithWaiters.remove(t);
      }
    }
    if (s.wakeHeapPosition >= 0) {
      wakes.remove(s);
    }
    waitingCount--;
  }

  void scheduleWake(Session s, long wakeNanos) {
    if (wakeNanos == Long.MAX_VALUE) {
      return;
    }
    s.wakeNanos = wakeNanos;
    if (s.wakeHeapPosition >= 0) {
      wakes.update(s);
    } else {
      wakes.add(s);
    }
  }

  /** Removes and returns a session whose wake time has come, or null. */
  Session dueWake(long nowNanos) {
    Session s = wakes.peek();
    if (s == null || s.wakeNanos > nowNanos) {
      return null;
    }
    wakes.remove(s);
    return s;
  }

  long nextWakeNanos() {
    Session s = wakes.peek();
    return s == null ? Long.MAX_VALUE : s.wakeNanos;
  }
}
