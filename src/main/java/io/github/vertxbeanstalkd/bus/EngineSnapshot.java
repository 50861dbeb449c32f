package io.github.vertxbeanstalkd.bus;

import io.github.vertxbeanstalkd.protocol.Counter;
import java.util.Map;

/**
 * What the engine looked like at one moment, for metrics, health checks and the admin page: per-tube
 * counts and server-wide counters. Immutable, built in O(tubes) on the engine's thread and read from
 * any thread without locks; it never walks the jobs.
 *
 * @param tubes by name, in list-tubes order
 * @param tubeRules what the tube settings did, by tube name, for each tube they ever refused a put
 *     of or dead-lettered a job from (empty without tube settings)
 */
public record EngineSnapshot(long takenAtEpochMillis, Map<String, TubeCounts> tubes, long[] commandCounts,
    long jobTimeouts, long totalJobs, int currentConnections, long totalConnections, long rejectedConnections,
    int currentWaiting,
    boolean isDraining, long binlogBytes, long jobStoreBytes, long memoryBytes, long maxMemoryBytes,
    long uptimeSeconds, Map<String, TubeRuleCounts> tubeRules) {

  /** Puts a tube's maxJobs and maxBytes refused, and jobs its maxReserves buried, since the start. */
  public record TubeRuleCounts(long refusedByMaxJobs, long refusedByMaxBytes, long deadLettered, long expiredBuried,
      long expiredDeleted) {
    /** Counts of a tube nothing expired in. */
    public TubeRuleCounts(long refusedByMaxJobs, long refusedByMaxBytes, long deadLettered) {
      this(refusedByMaxJobs, refusedByMaxBytes, deadLettered, 0, 0);
    }
  }

  /**
   * One tube's counts; {@code oldestReadyAgeSeconds} is how long its longest-waiting ready job has
   * waited; {@code reserves} and {@code deletes} count since the start, as {@code totalJobs} counts puts.
   */
  public record TubeCounts(String name, long urgent, long ready, long reserved, long delayed, long buried,
      long totalJobs, long using, long watching, long waiting, boolean isPaused, long pauseTimeLeftSeconds,
      double oldestReadyAgeSeconds, long reserves, long deletes) {}

  /** The tube of that name, or null. */
  public TubeCounts tube(String name) {
    return tubes.get(name);
  }

  /** How many times the command behind that {@code cmd-*} key ran. */
  public long commandCount(Counter counter) {
    return commandCounts[counter.ordinal()];
  }
}
