package io.github.vertxbeanstalkd.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.bus.Scope;
import io.github.vertxbeanstalkd.persistence.Binlog;
import io.github.vertxbeanstalkd.persistence.BinlogConfig;
import io.github.vertxbeanstalkd.persistence.BinlogListener;
import io.github.vertxbeanstalkd.persistence.FsyncPolicy;
import io.github.vertxbeanstalkd.protocol.Command;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction's work per engine turn is bounded however sparse the oldest segment is: its few live
 * jobs, behind tens of thousands of superseded snapshots, are found over several turns that the
 * engine runs on its own (yielded work, as a long flush's), and then the segment goes.
 */
class CompactionTurnsTest {
  private static final long SEGMENT_BYTES = 2 * 1024 * 1024;
  private static final int JOBS = 40_000;
  private static final int LEFT = 40;
  private static final BinlogListener QUIET = new BinlogListener() {
    @Override
    public void onDurable(long sequence) {}

    @Override
    public void onFailure(Throwable cause) {
      throw new AssertionError("the log failed", cause);
    }
  };
  @TempDir Path dir;

  @Test
  void theFewLiveJobsOfASparseOldestSegmentAreFoundOverSeveralTurns() throws Exception {
    Binlog binlog = Binlog.open(new BinlogConfig(dir, new FsyncPolicy.Never(), SEGMENT_BYTES, false),
        Runnable::run, QUIET);
    try {
      EngineFixture f = new EngineFixture(binlog);
      Session s = f.open();
      for (int done = 0; done < JOBS; done += 1_000) {
        List<Command> puts = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
          puts.add(Commands.put("body-" + (done + i)));
        }
        f.send(s, puts.toArray(Command[]::new)); // answered once durable: not waited for here
      }
      assertEquals(String.valueOf(JOBS), f.stats().get("current-jobs-ready"));
      long lastOfFirst = 1;
      while (Long.parseLong(f.statsJob(lastOfFirst + 1).get("file")) == 1) {
        lastOfFirst++;
      }
      assertTrue(lastOfFirst > 2 * Compaction.SNAPSHOTS_SEARCHED_PER_TURN,
          "segment 1 holds more snapshots than two turns look at: " + lastOfFirst);

      // One turn deletes every job but the last few of segment 1: they sit at the far end of its snapshots.
      List<Command> deletes = new ArrayList<>();
      for (long id = 1; id <= JOBS; id++) {
        if (id <= lastOfFirst - LEFT || id > lastOfFirst) {
          deletes.add(Commands.delete(id));
        }
      }
      f.engine.submit(s.key, deletes, Scope.NONE);
      // Read straight from the log, not with a command: every command is a turn, with its own search.
      assertEquals(1, binlog.stats().oldestIndex(),
          "the turn of the deletes did not search all of segment 1: its search is bounded");
      assertTrue(f.engine.hasYieldedWork(), "the search was cut short, and the engine has more to do");

      int turns = 0;
      while (f.engine.hasYieldedWork() && turns < 100) {
        f.engine.resumeYielded();
        turns++;
      }
      assertTrue(turns >= 2, "the search took turns of its own: " + turns);
      assertTrue(binlog.stats().oldestIndex() > 1,
          "segment 1 is gone once its live jobs were migrated, after " + turns + " turns");
      // From the log too: the engine's replies now wait for the writer to report the migrations durable.
      for (long id = lastOfFirst - LEFT + 1; id <= lastOfFirst; id++) {
        assertTrue(binlog.segmentOf(id) > 1, "job " + id + " was migrated out of segment 1");
      }
      assertEquals(0, binlog.segmentOf(lastOfFirst - LEFT), "a deleted job has no snapshot anywhere");
    } finally {
      binlog.close();
    }
  }
}
