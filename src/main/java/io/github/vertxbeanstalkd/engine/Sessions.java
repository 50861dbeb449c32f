package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.bus.SessionKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;

/**
 * Every open session, the ones blocked in a reserve, and when each must be woken. Only sessions
 * opened as connections count as connections in stats.
 */
final class Sessions {
  private final JobTable table;
  private final HashMap<SessionKey, Session> byKey = new HashMap<>();
  /** By front address: a front's sessions share what it has yet to receive. Fronts are few and stay. */
  private final HashMap<String, FrontFlow> flows = new HashMap<>();
  private long flowBudgetBytes = Long.MAX_VALUE;
  /** Open sessions by {@link Session#index}, the number job records name their holder by. */
  private final Roster<Session> byIndex = new Roster<>();
  /** Tubes some session waits on, in no order (each knows its position, for removal in O(1)). */
  private final ArrayList<Tube> tubesWithWaiters = new ArrayList<>();
  private final IndexedHeap<Session> wakes = new IndexedHeap<>() {
    boolean less(Session a, Session b) { return a.wakeNanos < b.wakeNanos; }
    int positionOf(Session s) { return s.wakeHeapPosition; }
    void setPosition(Session s, int p) { s.wakeHeapPosition = p; }
  };
  private int waitingCount;
  private long totalConnections;
  /** Connections closed at once because maxConnections were open. */
  private long refusedConnections;
  private int connectionCount;

  Sessions(JobTable table) {
    this.table = table;
  }

  /** A new session; a refused one answers every command with OUT_OF_MEMORY until it is closed. */
  Session open(SessionKey key, boolean isConnection, boolean isRefused) {
    if (byKey.containsKey(key)) {
      throw new IllegalStateException("session " + key + " is already open");
    }
    int index = byIndex.take();
    Session s = new Session(key, isConnection, index, table, isRefused, flow(key.front()));
    byKey.put(key, s);
    byIndex.set(index, s);
    if (isConnection) {
      totalConnections++;
      connectionCount++;
    }
    return s;
  }

  /** What the front at {@code address} has yet to receive. */
  FrontFlow flow(String address) {
    FrontFlow f = flows.get(address);
    if (f == null) {
      f = new FrontFlow(flowBudgetBytes);
      flows.put(address, f);
    }
    return f;
  }

  /** Each front's budget of bodies on their way to it; see {@link FrontFlow}. */
  void limitFlows(long budgetBytes) {
    flowBudgetBytes = budgetBytes;
    flows.values().forEach(f -> f.setBudget(budgetBytes));
  }

  Session get(SessionKey key) {
    return byKey.get(key);
  }

  /** The open session with that number (a job's holder). */
  Session at(int index) {
    return byIndex.at(index);
  }

  /** A session that is not open: it only carries replies and an end notice back to its front. */
  Session detached(SessionKey key) {
    Session s = new Session(key, false, JobTable.NONE, table, false, flow(key.front()));
    s.close();
    return s;
  }

  void remove(Session s) {
    if (byKey.remove(s.key) == null) {
      return;
    }
    if (s.isConnection) {
      connectionCount--;
    }
    byIndex.give(s.index);
  }

  Collection<Session> all() {
    return byKey.values();
  }

  /** Open sessions, connections or not. */
  int count() {
    return byKey.size();
  }

  int connectionCount() {
    return connectionCount;
  }

  long totalConnections() {
    return totalConnections;
  }

  void countRefusedConnection() {
    refusedConnections++;
  }

  long refusedConnections() {
    return refusedConnections;
  }

  int waitingCount() {
    return waitingCount;
  }

  /** Read by index, not iterated: no iterator per look. */
  List<Tube> tubesWithWaiters() {
    return tubesWithWaiters;
  }

  void park(Session s, long timeoutNanos) {
    s.park(timeoutNanos);
    List<Tube> watched = s.watched();
    for (int i = 0; i < watched.size(); i++) {
      Tube t = watched.get(i);
      t.addWaiter(s);
      if (t.waitersListPosition < 0) {
        t.waitersListPosition = tubesWithWaiters.size();
        tubesWithWaiters.add(t);
      }
    }
    waitingCount++;
  }

  void unpark(Session s) {
    s.unpark();
    List<Tube> watched = s.watched();
    for (int i = 0; i < watched.size(); i++) {
      Tube t = watched.get(i);
      if (t.removeWaiter(s)) {
        removeFromWaiterList(t);
      }
    }
    if (s.wakeHeapPosition >= 0) {
      wakes.remove(s);
    }
    waitingCount--;
  }

  private void removeFromWaiterList(Tube t) {
    int at = t.waitersListPosition;
    Tube last = tubesWithWaiters.remove(tubesWithWaiters.size() - 1);
    if (last != t) {
      tubesWithWaiters.set(at, last);
      last.waitersListPosition = at;
    }
    t.waitersListPosition = -1;
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
