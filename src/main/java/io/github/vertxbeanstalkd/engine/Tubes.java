package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.bus.Scope;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * The tubes that exist, in list-tubes order, which of them are paused, and which sessions use and
 * watch each: the one owner of the use and watch counts that keep a tube alive.
 *
 * @see <a href="{@docRoot}/../spec/BEHAVIOURS.html">BEHAVIOURS.md</a>
 */
final class Tubes {
  static final String DEFAULT = "default";

  private final JobTable table;
  private final HashMap<String, Tube> byName = new HashMap<>();
  /** Tubes by {@link Tube#index}. */
  private final Roster<Tube> byIndex = new Roster<>();
  private final ArrayList<Tube> inOrder = new ArrayList<>();
  private long watchCount;
  private final ArrayList<Tube> paused = new ArrayList<>();

  Tubes(JobTable table) {
    this.table = table;
    getOrCreate(DEFAULT);
  }

  /** Frees every tube's heaps; the tubes must not be used again. */
  void close() {
    inOrder.forEach(Tube::close);
  }

  /** The tube with that number; it exists while jobs refer to it. */
  Tube at(int index) {
    return byIndex.at(index);
  }

  Tube get(String name) {
    return byName.get(name);
  }

  int size() {
    return inOrder.size();
  }

  /** Entries on all watch lists together. */
  long watchCount() {
    return watchCount;
  }

  boolean exists(String name) {
    return byName.containsKey(name);
  }

  List<Tube> inOrder() {
    return inOrder;
  }

  /** BEHAVIOURS.md 9: only use and watch create tubes. */
  Tube getOrCreate(String name) {
    Tube t = byName.get(name);
    if (t == null) {
      t = new Tube(name, byIndex.take(), table);
      byIndex.set(t.index, t);
      byName.put(name, t);
      t.moveTo(inOrder.size());
      inOrder.add(t);
    }
    return t;
  }

  /** BEHAVIOURS.md 9: a tube goes as soon as nothing refers to it; its pause and counters go too. */
  void deleteIfUnused(Tube t) {
    if (t.isReferenced() || t.name.equals(DEFAULT) || byName.get(t.name) != t) {
      return;
    }
    byName.remove(t.name);
    // BEHAVIOURS.md 9: the last entry of list-tubes moves into the hole.
    Tube last = inOrder.remove(inOrder.size() - 1);
    if (last != t) {
      inOrder.set(t.listPosition(), last);
      last.moveTo(t.listPosition());
    }
    paused.remove(t);
    byIndex.give(t.index);
    t.close();
  }

  /** {@code s} now uses {@code t}, or no tube when null; the tube it leaves may go. */
  void use(Session s, Tube t) {
    if (s.used() == t) {
      return;
    }
    if (t != null) {
      t.addUser();
    }
    Tube old = s.use(t);
    if (old != null) {
      old.removeUser();
      deleteIfUnused(old);
    }
  }

  /** Adds {@code t} to the watch list unless it is there; true when added. */
  boolean watch(Session s, Tube t) {
    if (s.isWatching(t)) {
      return false;
    }
    s.addWatch(t);
    t.addWatcher();
    watchCount++;
    return true;
  }

  /** BEHAVIOURS.md 9: removes the entry at {@code at}; the last entry moves into the hole. */
  void ignore(Session s, int at) {
    Tube t = s.removeWatchAt(at);
    t.removeWatcher();
    watchCount--;
    deleteIfUnused(t);
  }

  /**
   * Replaces the whole watch list with the named tubes, creating them; the new ones are counted
   * before the old ones are let go, so a tube on both lists never disappears in between.
   */
  void watchOnly(Session s, List<String> names) {
    List<Tube> tubes = new ArrayList<>(names.size());
    for (String name : names) {
      tubes.add(getOrCreate(name));
    }
    watchOnlyTubes(s, tubes);
  }

  /** {@link #watchOnly(Session, List)} with tubes that exist. */
  void watchOnlyTubes(Session s, List<Tube> tubes) {
    if (tubes.isEmpty() && s.watched().isEmpty()) {
      return;
    }
    List<Tube> old = s.clearWatches();
    for (Tube t : tubes) {
      if (!s.isWatching(t)) {
        s.addWatch(t);
        t.addWatcher();
        watchCount++;
      }
    }
    for (Tube t : old) {
      t.removeWatcher();
      watchCount--;
      deleteIfUnused(t);
    }
  }

  /** The session lets go of every tube it uses or watches: it closed. */
  void leaveAll(Session s) {
    use(s, null);
    watchOnlyTubes(s, List.of());
  }

  /** The price of the tubes {@code scope} names that do not exist yet (a name twice may count twice). */
  long newTubeBytes(Scope scope) {
    long fresh = scope.tube() != null && !exists(scope.tube()) ? 1 : 0;
    if (scope.watchTubes() != null) {
      for (String name : scope.watchTubes()) {
        if (!exists(name) && !name.equals(scope.tube())) {
          fresh++;
        }
      }
    }
    return fresh * MemoryCap.TUBE_BYTES;
  }

  /**
   * A scoped command begins: the session uses and watches what {@code scope} names (unchanged where
   * it names nothing), and has its own tubes back at {@link #leaveScope}.
   */
  void enterScope(Session s, Scope scope) {
    s.enterScope();
    if (scope.tube() != null) {
      use(s, getOrCreate(scope.tube()));
    }
    if (scope.watchTubes() != null) {
      watchOnly(s, scope.watchTubes());
    }
  }

  void leaveScope(Session s) {
    String used = s.usedBeforeScope();
    List<String> watched = s.watchedBeforeScope();
    s.leaveScope();
    use(s, used == null ? null : getOrCreate(used));
    watchOnly(s, watched);
  }

  void setPause(Tube t, long seconds, long endNanos) {
    t.pause(seconds, endNanos);
    if (endNanos == 0) {
      paused.remove(t);
    } else if (!paused.contains(t)) {
      paused.add(t);
    }
  }

  long nextPauseEndNanos() {
    long next = Long.MAX_VALUE;
    // By index: this runs after every engine turn, and an iterator would be garbage each time.
    for (int i = 0; i < paused.size(); i++) {
      next = Math.min(next, paused.get(i).pauseEndNanos());
    }
    return next;
  }

  /** Ends the pauses that are over and returns their tubes. */
  List<Tube> endedPauses(long nowNanos) {
    if (paused.isEmpty()) {
      return List.of();
    }
    List<Tube> ended = new ArrayList<>();
    for (Tube t : paused) {
      if (t.pauseEndNanos() <= nowNanos) {
        ended.add(t);
      }
    }
    for (Tube t : ended) {
      setPause(t, 0, 0);
    }
    return ended;
  }
}
