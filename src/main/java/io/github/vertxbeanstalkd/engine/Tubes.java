package io.github.vertxbeanstalkd.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/** The tubes that exist, in list-tubes order, and which of them are paused. */
final class Tubes {
  static final String DEFAULT = "default";

  private final HashMap<String, Tube> byName = new HashMap<>();
  private final ArrayList<Tube> inOrder = new ArrayList<>();
  private final ArrayList<Tube> paused = new ArrayList<>();

  Tubes() {
    getOrCreate(DEFAULT);
  }

  Tube get(String name) {
    return byName.get(name);
  }

  int size() {
    return inOrder.size();
  }

  List<Tube> inOrder() {
    return inOrder;
  }

  /** BEHAVIOURS.md 9: only use and watch create tubes. */
  Tube getOrCreate(String name) {
    Tube t = byName.get(name);
    if (t == null) {
      t = new Tube(name);
      byName.put(name, t);
      t.listPosition = inOrder.size();
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
      inOrder.set(t.listPosition, last);
      last.listPosition = t.listPosition;
    }
    paused.remove(t);
  }

  void setPause(Tube t, long seconds, long endNanos) {
    t.pauseSeconds = seconds;
    t.pauseEndNanos = endNanos;
    if (endNanos == 0) {
      paused.remove(t);
    } else if (!paused.contains(t)) {
      paused.add(t);
    }
  }

  long nextPauseEndNanos() {
    long next = Long.MAX_VALUE;
    for (Tube t : paused) {
      next = Math.min(next, t.pauseEndNanos);
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
      if (t.pauseEndNanos <= nowNanos) {
        ended.add(t);
      }
    }
    for (Tube t : ended) {
      setPause(t, 0, 0);
    }
    return ended;
  }
}
