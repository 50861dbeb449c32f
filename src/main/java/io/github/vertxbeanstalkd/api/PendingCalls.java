package io.github.vertxbeanstalkd.api;

import io.github.vertxbeanstalkd.bus.BusSessionRef;
import io.github.vertxbeanstalkd.protocol.Command;
import io.vertx.core.eventbus.Message;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The requests each session has sent to the engine and not yet had answered, in order: the engine
 * answers a session's commands in the order it got them, so each reply answers the oldest one.
 * A session's entry exists only while it has a request out, so idle sessions cost nothing here.
 */
final class PendingCalls {
  /** One request waiting for the engine: its message and action, or an end marker. */
  /** {@code command} and {@code sentNanos} time the call for metrics; null and 0 when not timed. */
  record Entry(Message<Object> message, String action, boolean isEndMarker, Command command, long sentNanos) {
    Entry(Message<Object> message, String action, boolean isEndMarker) {
      this(message, action, isEndMarker, null, 0);
    }
  }

  private static final class Queue {
    final ArrayDeque<Entry> entries = new ArrayDeque<>(2);
    String nodeId;
  }

  private final Map<BusSessionRef, Queue> bySession = new HashMap<>();

  void add(BusSessionRef session, String nodeId, Entry entry) {
    Queue q = bySession.computeIfAbsent(session, s -> new Queue());
    if (nodeId != null) {
      q.nodeId = nodeId;
    }
    q.entries.add(entry);
  }

  /**
   * The oldest request of {@code session}, removed; null if none. End markers the engine had no
   * session left to end for are dropped on the way.
   */
  Entry poll(BusSessionRef session) {
    Queue q = bySession.get(session);
    if (q == null) {
      return null;
    }
    Entry e = q.entries.poll();
    while (e != null && e.isEndMarker() && e.message() == null) {
      e = q.entries.poll();
    }
    if (q.entries.isEmpty()) {
      bySession.remove(session);
    }
    return e;
  }

  /**
   * The engine ended {@code session}: removes and returns every request up to and including the
   * oldest end marker (the quit, or the node's departure), or nothing when there is no marker.
   */
  List<Entry> endUpToMarker(BusSessionRef session) {
    Queue q = bySession.get(session);
    if (q == null || q.entries.stream().noneMatch(Entry::isEndMarker)) {
      return List.of();
    }
    List<Entry> ended = new java.util.ArrayList<>();
    Entry e;
    do {
      e = q.entries.poll();
      ended.add(e);
    } while (!e.isEndMarker());
    if (q.entries.isEmpty()) {
      bySession.remove(session);
    }
    return ended;
  }

  /** Puts an end marker behind the requests of every session whose requests came from {@code nodeId}. */
  void markNodeLeft(String nodeId) {
    for (Queue q : bySession.values()) {
      if (nodeId.equals(q.nodeId)) {
        q.entries.add(new Entry(null, "node-left", true));
      }
    }
  }

  int sessionCount() {
    return bySession.size();
  }
}
