package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.bus.EngineSnapshot;
import io.github.vertxbeanstalkd.persistence.Binlog;
import io.github.vertxbeanstalkd.persistence.BinlogStats;
import io.github.vertxbeanstalkd.protocol.Counter;
import io.github.vertxbeanstalkd.protocol.JobState;
import io.github.vertxbeanstalkd.protocol.Reply;
import io.github.vertxbeanstalkd.protocol.StatsDocument;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * What the engine says about itself: the documents of stats, stats-job and stats-tube (keys in
 * 1.12's order), the tube lists, and the {@link EngineSnapshot} for metrics, all read from the
 * state's owners.
 */
final class StatsDocuments {
  private final ServerInfo info;
  private final long startNanos;
  private final long maxJobSizeBytes;
  private final JobTransitions jobs;
  private final JobTable table;
  private final Tubes tubes;
  private final Sessions sessions;
  private final MemoryCap memory;
  private final CommandCounts counts;
  private final Binlog binlog;
  private final BooleanSupplier isDraining;
  private final Clock clock;

  StatsDocuments(ServerInfo info, long startNanos, long maxJobSizeBytes, JobTransitions jobs, Tubes tubes,
      Sessions sessions, MemoryCap memory, CommandCounts counts, Binlog binlog, BooleanSupplier isDraining,
      Clock clock) {
    this.info = info;
    this.startNanos = startNanos;
    this.maxJobSizeBytes = maxJobSizeBytes;
    this.jobs = jobs;
    this.table = jobs.table;
    this.tubes = tubes;
    this.sessions = sessions;
    this.memory = memory;
    this.counts = counts;
    this.binlog = binlog;
    this.isDraining = isDraining;
    this.clock = clock;
  }

  Reply job(int j) {
    long now = clock.nanos();
    JobState state = table.state(j);
    long timeLeft = 0;
    if (state == JobState.DELAYED || state == JobState.RESERVED) {
      timeLeft = Math.max(0, table.deadlineNanos(j) - now) / Clock.SECOND_NANOS;
    }
    return new Reply.Stats(new StatsDocument()
        .put("id", table.id(j))
        .put("tube", jobs.tubeOf(j).name)
        .put("state", state.word())
        .put("pri", Integer.toUnsignedLong(table.priority(j)))
        .put("age", (now - table.createdNanos(j)) / Clock.SECOND_NANOS)
        .put("delay", Integer.toUnsignedLong(table.delaySeconds(j)))
        .put("ttr", Integer.toUnsignedLong(table.ttrSeconds(j)))
        .put("time-left", timeLeft)
        .put("file", binlog.segmentOf(table.id(j)))
        .put("reserves", table.reserves(j))
        .put("timeouts", table.timeouts(j))
        .put("releases", table.releases(j))
        .put("buries", table.buries(j))
        .put("kicks", table.kicks(j)));
  }

  Reply tube(Tube t) {
    long now = clock.nanos();
    return new Reply.Stats(new StatsDocument()
        .put("name", t.name)
        .put("current-jobs-urgent", t.urgentCount())
        .put("current-jobs-ready", t.readyCount())
        .put("current-jobs-reserved", t.reservedCount())
        .put("current-jobs-delayed", t.delayedCount())
        .put("current-jobs-buried", t.buriedCount())
        .put("total-jobs", t.totalJobs())
        .put("current-using", t.usingCount())
        .put("current-watching", t.watchingCount())
        .put("current-waiting", t.waitingCount())
        .put("cmd-delete", t.deleteCount())
        .put("cmd-pause-tube", t.pauseCount())
        .put("pause", t.isPaused(now) ? t.pauseSeconds() : 0)
        .put("pause-time-left", t.pauseSecondsLeft(now)));
  }

  Reply server() {
    long urgent = 0;
    long ready = 0;
    long reserved = 0;
    long delayed = 0;
    long buried = 0;
    for (Tube t : tubes.inOrder()) {
      urgent += t.urgentCount();
      ready += t.readyCount();
      reserved += t.reservedCount();
      delayed += t.delayedCount();
      buried += t.buriedCount();
    }
    long producers = 0;
    long workers = 0;
    for (Session s : sessions.all()) {
      if (s.isConnection) {
        producers += s.isProducer() ? 1 : 0;
        workers += s.isWorker() ? 1 : 0;
      }
    }
    StatsDocument d = new StatsDocument()
        .put("current-jobs-urgent", urgent)
        .put("current-jobs-ready", ready)
        .put("current-jobs-reserved", reserved)
        .put("current-jobs-delayed", delayed)
        .put("current-jobs-buried", buried);
    for (Counter c : Counter.values()) {
      if (c != Counter.NONE) {
        d.put(c.statsKey(), counts.get(c));
      }
    }
    long[] cpu = ProcessCpu.micros();
    BinlogStats log = binlog.stats();
    return new Reply.Stats(d.put("job-timeouts", jobs.jobTimeouts())
        .put("total-jobs", jobs.totalJobs())
        .put("max-job-size", maxJobSizeBytes)
        .put("current-tubes", tubes.size())
        .put("current-connections", sessions.connectionCount())
        .put("current-producers", producers)
        .put("current-workers", workers)
        .put("current-waiting", sessions.waitingCount())
        .put("total-connections", sessions.totalConnections())
        .put("pid", info.pid())
        .putQuoted("version", info.version())
        .putMicros("rusage-utime", cpu[0])
        .putMicros("rusage-stime", cpu[1])
        .put("uptime", (clock.nanos() - startNanos) / Clock.SECOND_NANOS)
        .put("binlog-oldest-index", log.oldestIndex())
        .put("binlog-current-index", log.currentIndex())
        .put("binlog-records-migrated", log.recordsMigrated())
        .put("binlog-records-written", log.recordsWritten())
        .put("binlog-max-size", log.maxSizeBytes())
        .put("draining", isDraining.getAsBoolean())
        .put("id", info.id())
        .put("hostname", info.hostname())
        .put("os", info.os())
        .put("platform", info.platform())
        // Not in 1.12: what the job store holds now, bodies and metadata, in bytes.
        .put("current-job-store-bytes", table.reservedBytes())
        // Not in 1.12: what maxMemory counts (job data, tubes, watches, sessions), and the cap.
        .put("current-memory-bytes", memory.usedBytes())
        .put("max-memory-bytes", memory.maxBytes())
        // Not in 1.12: connections closed at once because maxConnections were open.
        .put("rejected-connections", sessions.refusedConnections()));
  }

  static Reply names(List<Tube> list) {
    List<String> names = new ArrayList<>(list.size());
    for (Tube t : list) {
      names.add(t.name);
    }
    return new Reply.TubeNames(names);
  }

  /** Counts per tube and server-wide, in O(tubes), none over the jobs; taken on the engine's clock. */
  EngineSnapshot snapshot() {
    long now = clock.nanos();
    Map<String, EngineSnapshot.TubeCounts> byName = new LinkedHashMap<>(tubes.size() * 2);
    for (Tube t : tubes.inOrder()) {
      int oldest = t.oldestReady();
      double oldestAgeSeconds = oldest == JobTable.NONE
          ? 0 : Math.max(0, now - table.deadlineNanos(oldest)) / (double) Clock.SECOND_NANOS;
      byName.put(t.name, new EngineSnapshot.TubeCounts(t.name, t.urgentCount(), t.readyCount(), t.reservedCount(),
          t.delayedCount(), t.buriedCount(), t.totalJobs(), t.usingCount(), t.watchingCount(), t.waitingCount(),
          t.isPaused(now), t.pauseSecondsLeft(now), oldestAgeSeconds, t.reserveCount(), t.deleteCount()));
    }
    return new EngineSnapshot(clock.epochMillis(), Collections.unmodifiableMap(byName), counts.copy(),
        jobs.jobTimeouts(), jobs.totalJobs(), sessions.connectionCount(), sessions.totalConnections(),
        sessions.refusedConnections(), sessions.waitingCount(), isDraining.getAsBoolean(),
        binlog.stats().diskBytes(), table.reservedBytes(), memory.usedBytes(), memory.maxBytes(),
        (now - startNanos) / Clock.SECOND_NANOS, ruleCounts());
  }

  private Map<String, EngineSnapshot.TubeRuleCounts> ruleCounts() {
    Map<String, TubeRules.Counts> counts = jobs.rules.counts();
    if (counts.isEmpty()) {
      return Map.of();
    }
    Map<String, EngineSnapshot.TubeRuleCounts> byName = new LinkedHashMap<>(counts.size() * 2);
    counts.forEach((name, c) -> byName.put(name,
        new EngineSnapshot.TubeRuleCounts(c.refusedByMaxJobs, c.refusedByMaxBytes, c.deadLettered,
            c.expiredBuried, c.expiredDeleted)));
    return Collections.unmodifiableMap(byName);
  }
}
