package io.github.vertxbeanstalkd.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.persistence.Binlog;
import io.github.vertxbeanstalkd.persistence.BinlogConfig;
import io.github.vertxbeanstalkd.persistence.BinlogRecord;
import io.github.vertxbeanstalkd.persistence.FsyncPolicy;
import io.github.vertxbeanstalkd.persistence.JobCounters;
import io.github.vertxbeanstalkd.persistence.Replay;
import io.github.vertxbeanstalkd.persistence.SnapshotState;
import io.github.vertxbeanstalkd.store.DirectMemory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replay straight into the engine's store, record by record, ends with exactly the jobs that
 * reading the whole log first gives ({@link Replay#read}, FORMAT.md's "Replay"): random logs of
 * puts, migrations, deletes, releases, buries, kicks and reserve-jobs over many small segments,
 * with changes to jobs deleted before them.
 */
class RestoredJobsTest {
  /** Fixed, after every time the logs hold, so a job's times read back to the millisecond. */
  private static final long WALL_MILLIS = 1_800_000_000_000L;
  private static final Clock CLOCK = new Clock() {
    @Override
    public long nanos() {
      return 5_000 * SECOND_NANOS;
    }

    @Override
    public long epochMillis() {
      return WALL_MILLIS;
    }
  };
  @TempDir Path dir;

  @Test
  void theEngineHoldsWhatTheWholeLogSays() throws IOException {
    for (int seed = 1; seed <= 5; seed++) {
      Path logDir = dir.resolve("seed" + seed);
      write(logDir, new Random(seed), 4_000);
      List<BinlogRecord.JobSnapshot> expected = Replay.read(logDir, false).jobs();
      Binlog binlog = Binlog.lock(config(logDir), Runnable::run, QuietLogListener.INSTANCE);
      // The engine's own structures, as QueueEngine builds them, with the log's bases in the records.
      JobTable table = new JobTable(new DirectMemory());
      JobTransitions jobs = new JobTransitions(table, new Tubes(table), new Sessions(table), (t, now) -> { }, binlog,
          CLOCK);
      binlog.keepBasesIn(table.logBases());
      try {
        jobs.restored(binlog.replay(new RestoredJobs(jobs)).nextJobId());
        List<BinlogRecord.JobSnapshot> restored = new ArrayList<>();
        for (int j = table.nextSlot(0); j != JobTable.NONE; j = table.nextSlot(j + 1)) {
          if (table.isLive(j)) {
            restored.add(jobs.snapshotOf(j, CLOCK.nanos()));
          }
        }
        restored.sort(Comparator.comparingLong(BinlogRecord.JobSnapshot::id));
        assertEquals(expected, restored, "seed " + seed);
        assertEquals(Replay.read(logDir, false).nextJobId(), jobs.nextJobId(), "seed " + seed);
        // The log's account of each job is in its record: every job is based in a segment it read.
        for (BinlogRecord.JobSnapshot job : expected) {
          assertEquals(true, binlog.segmentOf(job.id()) > 0, "seed " + seed + ", job " + job.id());
        }
      } finally {
        jobs.close();
        table.close();
        binlog.close();
      }
    }
  }

  private static BinlogConfig config(Path logDir) {
    return new BinlogConfig(logDir, new FsyncPolicy.Never(), BinlogConfig.MIN_SEGMENT_SIZE, false);
  }

  /** {@code records} random records, a third of them about jobs that no longer live. */
  private static void write(Path logDir, Random random, int records) throws IOException {
    Binlog log = Binlog.open(config(logDir), Runnable::run, QuietLogListener.INSTANCE);
    List<Long> ids = new ArrayList<>();
    long nextId = 1;
    try {
      for (int i = 0; i < records; i++) {
        int what = random.nextInt(10);
        long id = ids.isEmpty() || random.nextInt(3) == 0 ? nextId + random.nextInt(3)
            : ids.get(random.nextInt(ids.size()));
        JobCounters counters = new JobCounters(random.nextInt(5), random.nextInt(5), random.nextInt(5),
            random.nextInt(5), random.nextInt(5));
        BinlogRecord r;
        if (what < 4) {
          // A put, or a migration of a job that lives.
          id = what == 0 && !ids.isEmpty() ? id : nextId++;
          r = snapshot(id, random, counters);
          if (!ids.contains(id)) {
            ids.add(id);
          }
        } else if (what == 4) {
          r = new BinlogRecord.Delete(id);
          ids.remove(id);
        } else if (what == 5) {
          boolean isDelayed = random.nextBoolean();
          r = new BinlogRecord.Release(id, random.nextInt(3000), isDelayed ? 30 : 0,
              isDelayed ? WALL_MILLIS + 30_000 : 0, counters);
        } else if (what == 6) {
          r = new BinlogRecord.Bury(id, random.nextInt(3000), counters);
        } else if (what == 7) {
          r = new BinlogRecord.Kick(id, counters);
        } else if (what == 8) {
          r = new BinlogRecord.Reserve(id, counters);
        } else {
          r = new BinlogRecord.HighWater(nextId + random.nextInt(5));
        }
        log.append(r);
      }
    } finally {
      log.close();
    }
  }

  private static BinlogRecord.JobSnapshot snapshot(long id, Random random, JobCounters counters) {
    SnapshotState state = SnapshotState.values()[random.nextInt(SnapshotState.values().length)];
    boolean isDelayed = state == SnapshotState.DELAYED;
    String tube = "tube" + random.nextInt(4);
    byte[] body = ("job " + id + " ".repeat(random.nextInt(200))).getBytes(StandardCharsets.US_ASCII);
    return new BinlogRecord.JobSnapshot(id, tube, state, random.nextInt(3000), isDelayed ? 60 : 0,
        isDelayed ? WALL_MILLIS + 60_000 : 0, 1 + random.nextInt(100), WALL_MILLIS - random.nextInt(1_000_000),
        counters, body);
  }
}
