package io.github.vertxbeanstalkd.durability;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Counts of what went wrong across crash cycles, with the first few examples of each. */
final class CrashTally {
  enum Kind {
    /** An acknowledged put (or a job handed out) not deleted, missing after the restart. */
    LOST,
    /** An acknowledged delete, back after the restart. */
    RESURRECTED,
    /** A body or tube other than the put's, or a job no put sent. */
    CORRUPTED,
    /** Priority or state not allowed by what was acknowledged. */
    WRONG_STATE,
    /** An id handed out twice, or a new id not above every id seen. */
    ID_REUSE,
    /** A reply the workload does not expect (NOT_FOUND for a held job, INTERNAL_ERROR, a stall). */
    UNEXPECTED_REPLY,
    /** The server refused to start again on its own directory. */
    START_REFUSED
  }

  private static final int EXAMPLES = 8;
  private final Map<Kind, Long> counts = new EnumMap<>(Kind.class);
  private final List<String> examples = new ArrayList<>();

  synchronized void add(Kind kind, String detail) {
    counts.merge(kind, 1L, Long::sum);
    if (examples.stream().filter(e -> e.startsWith(kind.name())).count() < EXAMPLES) {
      examples.add(kind + ": " + detail);
    }
  }

  synchronized long count(Kind kind) {
    return counts.getOrDefault(kind, 0L);
  }

  synchronized long total() {
    return counts.values().stream().mapToLong(Long::longValue).sum();
  }

  synchronized void addAll(CrashTally other) {
    synchronized (other) {
      other.counts.forEach((k, n) -> counts.merge(k, n, Long::sum));
      for (String e : other.examples) {
        if (examples.size() < 4 * EXAMPLES) {
          examples.add(e);
        }
      }
    }
  }

  synchronized String summary() {
    StringBuilder b = new StringBuilder();
    for (Kind k : Kind.values()) {
      b.append(k.name().toLowerCase()).append('=').append(count(k)).append(' ');
    }
    return b.toString().trim();
  }

  synchronized String examples() {
    return String.join("\n", examples);
  }
}
