package io.github.vertxbeanstalkd.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.bus.Scope;
import io.github.vertxbeanstalkd.persistence.Binlog;
import io.github.vertxbeanstalkd.persistence.BinlogConfig;
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
  @TempDir Path dir;

  @Test
  void theFewLiveJobsOfASparseOldestSegmentAreFoundOverSeveralTurns() throws Exception {
    Binlog binlog = Binlog.open(new BinlogConfig(dir, new FsyncPolicy.Never(), SEGMENT_BYTES, false),
        Runnable::run, QuietLogListener.INSTANCE);
    try {
      EngineFixture f = new EngineFixture(binlog);
      Session s = f.open();
      for (int done = 0; done < JOBS; done += 1_000) {
        List<Command> puts = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
          puts.add(Commands.put("body-" + (done + i)));
        }
        f.engine.submit(s.key, puts, Scope.NONE);
      }
      // Read from the log itself, never with a command: replies wait for the writer to report the
      // records durable, which this test does not pass on, and every command is a turn with a search.
      assertEquals(2, binlog.segmentOf(JOBS), "the puts filled segment 1 and went on into segment 2");
      long lastOfFirst = 1;
      while (binlog.segmentOf(lastOfFirst + 1) == 1) {
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
      for (long id = lastOfFirst - LEFT + 1; id <= lastOfFirst; id++) {
        assertTrue(binlog.segmentOf(id) > 1, "job " + id + " was migrated out of segment 1");
      }
      assertEquals(0, binlog.segmentOf(lastOfFirst - LEFT), "a deleted job has no snapshot anywhere");
    } finally {
      binlog.close();
    }
  }
}
