package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.protocol.TubeSettings;
import io.github.vertxbeanstalkd.persistence.BinlogRecord;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The tubes' settings in force (by tube name, {@code "*"} for every tube's defaults), each tube's
 * effective settings, and what they did per tube: puts refused by a cap, jobs dead-lettered. Kept by
 * name, not on the {@link Tube}: a tube comes and goes with its jobs and watchers, its settings stay.
 * With no settings every question is answered in O(1) and nothing differs from beanstalkd 1.12.
 */
final class TubeRules {
  /** What the rules did to one tube since the server started; read by the snapshot. */
  static final class Counts {
    long refusedByMaxJobs;
    long refusedByMaxBytes;
    long deadLettered;
    long expiredBuried;
    long expiredDeleted;
  }

  private final LinkedHashMap<String, TubeSettings> table = new LinkedHashMap<>();
  /** Effective settings by tube name, made on first use after each change. */
  private final HashMap<String, TubeSettings> effective = new HashMap<>();
  private final LinkedHashMap<String, Counts> counts = new LinkedHashMap<>();
  /** Whether some entry sets a maxAge: what the expiry's timer asks on every turn. */
  private boolean hasAgeLimits;

  boolean isEmpty() {
    return table.isEmpty();
  }

  /** The settings as set, in the order they were first set. */
  Map<String, TubeSettings> table() {
    return Collections.unmodifiableMap(table);
  }

  /** {@code tube}'s own settings, merged over those of {@code "*"}. */
  TubeSettings effective(String tube) {
    if (table.isEmpty()) {
      return TubeSettings.NONE;
    }
    TubeSettings s = effective.get(tube);
    if (s == null) {
      TubeSettings every = table.getOrDefault(TubeSettings.EVERY_TUBE, TubeSettings.NONE);
      s = table.getOrDefault(tube, TubeSettings.NONE).over(every);
      effective.put(tube, s);
    }
    return s;
  }

  /** {@code tube}'s own settings (no defaults), or {@link TubeSettings#NONE}. */
  TubeSettings own(String tube) {
    return table.getOrDefault(tube, TubeSettings.NONE);
  }

  /** {@code tube} (or {@code "*"}) has these settings from now on; empty ones remove its entry. */
  void set(String tube, TubeSettings settings) {
    if (settings.isEmpty()) {
      table.remove(tube);
    } else {
      table.put(tube, settings);
    }
    effective.clear();
    hasAgeLimits = table.values().stream().anyMatch(s -> s.ageLimitSeconds() > 0);
  }

  /** Whether some tube (or {@code "*"}) has a maxAge. */
  boolean hasAgeLimits() {
    return hasAgeLimits;
  }

  /** The whole table becomes {@code settings} (a replay, a primary's record). */
  void replaceAll(Map<String, TubeSettings> settings) {
    table.clear();
    settings.forEach(this::set);
    effective.clear();
    hasAgeLimits = table.values().stream().anyMatch(s -> s.ageLimitSeconds() > 0);
  }

  /** The table as the log writes it. */
  BinlogRecord.TubeSettingsTable record() {
    return new BinlogRecord.TubeSettingsTable(table);
  }

  /**
   * Whether a put of {@code bodyBytes} fits {@code tube}'s caps; a refusal is counted. A tube at its
   * cap refuses every put, an empty one refuses none that fits maxBytes.
   */
  boolean admitsPut(Tube tube, int bodyBytes) {
    if (table.isEmpty()) {
      return true;
    }
    TubeSettings s = effective(tube.name);
    if (s.jobCap() > 0 && tube.jobCount() >= s.jobCap()) {
      countsOf(tube.name).refusedByMaxJobs++;
      return false;
    }
    if (s.byteCap() > 0 && tube.bodyBytes() + bodyBytes > s.byteCap()) {
      countsOf(tube.name).refusedByMaxBytes++;
      return false;
    }
    return true;
  }

  /** A job of {@code tube} was dead-lettered. */
  void countDeadLetter(String tube) {
    countsOf(tube).deadLettered++;
  }

  /** A job of {@code tube} passed its maxAge and was deleted, or buried. */
  void countExpired(String tube, boolean isDeleted) {
    if (isDeleted) {
      countsOf(tube).expiredDeleted++;
    } else {
      countsOf(tube).expiredBuried++;
    }
  }

  /** The counts by tube name, for tubes whose rules ever refused or dead-lettered. */
  Map<String, Counts> counts() {
    return counts;
  }

  private Counts countsOf(String tube) {
    return counts.computeIfAbsent(tube, t -> new Counts());
  }
}
