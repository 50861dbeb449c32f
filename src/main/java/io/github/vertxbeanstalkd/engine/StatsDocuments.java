package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.persistence.BinlogStats;
import io.github.vertxbeanstalkd.protocol.Counter;
import io.github.vertxbeanstalkd.protocol.JobState;
import io.github.vertxbeanstalkd.protocol.Reply;
import io.github.vertxbeanstalkd.protocol.Yaml;
import java.util.List;

/** The YAML documents of stats, stats-job, stats-tube and the tube lists, keys in 1.12's order. */
final class StatsDocuments {
  private StatsDocuments() {}

  static Reply job(JobTransitions jobs, int j, long now, long file) {
    JobTable t = jobs.table;
    JobState state = t.state(j);
    long timeLeft = 0;
    if (state == JobState.DELAYED || state == JobState.RESERVED) {
      timeLeft = Math.max(0, t.deadlineNanos(j) - now) / Clock.SECOND_NANOS;
    }
    return new Yaml()
        .put("id", t.id(j))
        .put("tube", jobs.tubeOf(j).name)
        .put("state", state.word())
        .put("pri", Integer.toUnsignedLong(t.priority(j)))
        .put("age", (now - t.createdNanos(j)) / Clock.SECOND_NANOS)
        .put("delay", Integer.toUnsignedLong(t.delaySeconds(j)))
        .put("ttr", Integer.toUnsignedLong(t.ttrSeconds(j)))
        .put("time-left", timeLeft)
        .put("file", file)
        .put("reserves", t.reserves(j))
        .put("timeouts", t.timeouts(j))
        .put("releases", t.releases(j))
        .put("buries", t.buries(j))
        .put("kicks", t.kicks(j))
        .toReply();
  }

  static Reply tube(Tube t, long now) {
    long pauseLeft = t.isPaused(now) ? (t.pauseEndNanos - now) / Clock.SECOND_NANOS : 0;
    return new Yaml()
        .put("name", t.name)
        .put("current-jobs-urgent", t.urgentReadyCount)
        .put("current-jobs-ready", t.ready.size())
        .put("current-jobs-reserved", t.reservedCount)
        .put("current-jobs-delayed", t.delayed.size())
        .put("current-jobs-buried", t.buried.size())
        .put("total-jobs", t.totalJobs)
        .put("current-using", t.usingCount)
        .put("current-watching", t.watchingCount)
        .put("current-waiting", t.waiting.size())
        .put("cmd-delete", t.deleteCount)
        .put("cmd-pause-tube", t.pauseCount)
        .put("pause", t.isPaused(now) ? t.pauseSeconds : 0)
        .put("pause-time-left", pauseLeft)
        .toReply();
  }

  static Reply server(QueueEngine e) {
    long urgent = 0;
    long ready = 0;
    long reserved = 0;
    long delayed = 0;
    long buried = 0;
    for (Tube t : e.tubes.inOrder()) {
      urgent += t.urgentReadyCount;
      ready += t.ready.size();
      reserved += t.reservedCount;
      delayed += t.delayed.size();
      buried += t.buried.size();
    }
    long producers = 0;
    long workers = 0;
    for (Session s : e.sessions.all()) {
      if (s.isBusSession) {
        continue;
      }
      producers += s.isProducer ? 1 : 0;
      workers += s.isWorker ? 1 : 0;
    }
    Yaml y = new Yaml()
        .put("current-jobs-urgent", urgent)
        .put("current-jobs-ready", ready)
        .put("current-jobs-reserved", reserved)
        .put("current-jobs-delayed", delayed)
        .put("current-jobs-buried", buried);
    for (Counter c : Counter.values()) {
      if (c != Counter.NONE) {
        y.put(c.statsKey(), e.counters[c.ordinal()]);
      }
    }
    long[] cpu = ProcessCpu.micros();
    ServerInfo info = e.info;
    BinlogStats binlog = e.binlog.stats();
    return y.put("job-timeouts", e.jobs.jobTimeouts)
        .put("total-jobs", e.jobs.totalJobs)
        .put("max-job-size", e.maxJobSizeBytes)
        .put("current-tubes", e.tubes.size())
        .put("current-connections", e.sessions.connectionCount())
        .put("current-producers", producers)
        .put("current-workers", workers)
        .put("current-waiting", e.sessions.waitingCount())
        .put("total-connections", e.sessions.totalConnections())
        .put("pid", info.pid())
        .put("version", '"' + info.version() + '"')
        .put("rusage-utime", ProcessCpu.format(cpu[0]))
        .put("rusage-stime", ProcessCpu.format(cpu[1]))
        .put("uptime", (e.nowNanos() - e.startNanos) / Clock.SECOND_NANOS)
        .put("binlog-oldest-index", binlog.oldestIndex())
        .put("binlog-current-index", binlog.currentIndex())
        .put("binlog-records-migrated", binlog.recordsMigrated())
        .put("binlog-records-written", binlog.recordsWritten())
        .put("binlog-max-size", binlog.maxSizeBytes())
        .put("draining", e.isDraining() ? "true" : "false")
        .put("id", info.id())
        .put("hostname", info.hostname())
        .put("os", info.os())
        .put("platform", info.platform())
        // Not in 1.12: what the job store holds now, bodies and metadata, in bytes.
        .put("current-job-store-bytes", e.jobStoreBytes())
        // Not in 1.12: what maxMemory counts (job data, tubes, watches, sessions), and the cap.
        .put("current-memory-bytes", e.memoryBytes())
        .put("max-memory-bytes", e.maxMemoryBytes())
        // Not in 1.12: connections closed at once because maxConnections were open.
        .put("rejected-connections", e.sessions.rejectedConnections)
        .toReply();
  }

  static Reply names(List<Tube> tubes) {
    Yaml y = new Yaml();
    for (Tube t : tubes) {
      y.item(t.name);
    }
    return y.toReply();
  }
}
