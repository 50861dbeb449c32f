package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.bus.EngineSnapshot;
import io.github.vertxbeanstalkd.protocol.Counter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** Builds the {@link EngineSnapshot}: one pass over the tubes, none over the jobs. */
final class Snapshots {
  private Snapshots() {}

  static EngineSnapshot take(QueueEngine e, long epochMillis) {
    long now = e.nowNanos();
    Map<String, EngineSnapshot.TubeCounts> tubes = new LinkedHashMap<>(e.tubes.size() * 2);
    for (Tube t : e.tubes.inOrder()) {
      int oldest = t.readyOrder.first();
      double oldestAgeSeconds = oldest == JobTable.NONE
          ? 0 : Math.max(0, now - e.table.deadlineNanos(oldest)) / (double) Clock.SECOND_NANOS;
      boolean isPaused = t.isPaused(now);
      tubes.put(t.name, new EngineSnapshot.TubeCounts(t.name, t.urgentReadyCount, t.ready.size(), t.reservedCount,
          t.delayed.size(), t.buried.size(), t.totalJobs, t.usingCount, t.watchingCount, t.waiting.size(),
          isPaused, isPaused ? (t.pauseEndNanos - now) / Clock.SECOND_NANOS : 0, oldestAgeSeconds));
    }
    long[] counters = e.counters.clone();
    counters[Counter.NONE.ordinal()] = 0;
    return new EngineSnapshot(epochMillis, Collections.unmodifiableMap(tubes), counters, e.jobs.jobTimeouts, e.jobs.totalJobs,
        e.sessions.connectionCount(), e.sessions.totalConnections(), e.sessions.rejectedConnections,
        e.sessions.waitingCount(), e.isDraining(),
        e.binlog.stats().diskBytes(), e.jobStoreBytes(), e.memoryBytes(), e.maxMemoryBytes(),
        (now - e.startNanos) / Clock.SECOND_NANOS);
  }
}
