package io.github.vertxbeanstalkd.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.protocol.TubeSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * FORMAT.md: the last TubeSettingsTable in the log wins on replay, and every new segment starts
 * with the table in force, so compaction never deletes it.
 */
class TubeSettingsRecordTest {
  private static final long SEGMENT_BYTES = 4096;
  private static final Map<String, TubeSettings> FIRST = Map.of("a", new TubeSettings(1L, null, null, null));
  private static final Map<String, TubeSettings> LAST = Map.of("*", new TubeSettings(null, 100L, 3L, "dead"));
  @TempDir Path dir;

  /** The tables a replay hands its target, in order. */
  private List<Map<String, TubeSettings>> replayedTables() throws IOException {
    List<Map<String, TubeSettings>> tables = new ArrayList<>();
    Replay.into(dir, false, new ReplayTarget() {
      public void snapshot(BinlogRecord.JobSnapshot job, long segment, int frameBytes) {}

      public void change(long id, BinlogRecord change) {}

      public void delete(long id) {}

      @Override
      public void tubeSettings(BinlogRecord.TubeSettingsTable table) {
        tables.add(table.settings());
      }
    }, null);
    return tables;
  }

  @Test
  void theLastTableInTheLogWins() throws IOException {
    try (LogHarness log = LogHarness.open(dir, new FsyncPolicy.Always(), SEGMENT_BYTES)) {
      log.append(new BinlogRecord.TubeSettingsTable(FIRST));
      log.appendDurably(new BinlogRecord.TubeSettingsTable(LAST));
    }
    List<Map<String, TubeSettings>> tables = replayedTables();
    assertEquals(LAST, tables.get(tables.size() - 1));
  }

  @Test
  void theTableInForceOutlivesTheSegmentsCompactionDeletes() throws IOException {
    try (LogHarness log = LogHarness.open(dir, new FsyncPolicy.Always(), SEGMENT_BYTES)) {
      ModelEngine engine = new ModelEngine(log, SEGMENT_BYTES);
      engine.settings(LAST);
      long id = engine.put("churn", 1, 100);
      for (int round = 0; round < 300; round++) {
        engine.release(id, round, 0);
      }
      engine.awaitDurable();
      assertTrue(log.binlog.stats().oldestIndex() > 1, "the first segment was deleted: " + log.binlog.stats());
    }
    List<Map<String, TubeSettings>> tables = replayedTables();
    assertEquals(LAST, tables.get(tables.size() - 1));
  }

  @Test
  void anEmptyTableEndsTheSettingsAndIsNotWrittenAgain() throws IOException {
    try (LogHarness log = LogHarness.open(dir, new FsyncPolicy.Always(), SEGMENT_BYTES)) {
      ModelEngine engine = new ModelEngine(log, SEGMENT_BYTES);
      engine.settings(LAST);
      engine.settings(Map.of());
      long id = engine.put("churn", 1, 100);
      for (int round = 0; round < 300; round++) {
        engine.release(id, round, 0);
      }
      engine.awaitDurable();
    }
    List<Map<String, TubeSettings>> tables = replayedTables();
    assertTrue(tables.isEmpty() || tables.get(tables.size() - 1).isEmpty(), tables.toString());
  }
}
