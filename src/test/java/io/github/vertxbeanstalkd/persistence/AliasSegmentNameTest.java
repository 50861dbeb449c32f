package io.github.vertxbeanstalkd.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.persistence.BinlogRecord.JobSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Any run of six or more digits after "binlog." counted as a segment, so a file named
 * binlog.0000001 claimed the index of binlog.000001: replay saw a hole between the two, and which of
 * them it read first was the file system's listing order. Only the writer's own names count now,
 * and a name past the highest index the ledger can hold is refused, naming the file.
 */
class AliasSegmentNameTest {
  private static final int SEGMENT_BYTES = 4096;
  @TempDir Path dir;

  @Test
  void aFileNamedLikeASegmentInOtherDigitsIsNotOne() throws IOException {
    List<JobSnapshot> written = LogHarness.writeJobs(dir, SEGMENT_BYTES, 30);
    List<Path> segments = SegmentFile.list(dir);
    Files.copy(SegmentFile.path(dir, 1), dir.resolve("binlog.0000001"));
    Files.copy(SegmentFile.path(dir, 2), dir.resolve("binlog.00000000002"));

    assertEquals(segments, SegmentFile.list(dir));
    assertEquals(written, Replay.read(dir, false).jobs());
    try (LogHarness log = LogHarness.open(new BinlogConfig(dir, new FsyncPolicy.Always(), SEGMENT_BYTES, false),
        new FakeDisk())) {
      assertEquals(written, log.binlog.takeRecovered().jobs());
    }
  }

  @Test
  void aSegmentIndexPastTheHighestIsRefusedByNameEvenInRecoverMode() throws IOException {
    LogHarness.writeJobs(dir, SEGMENT_BYTES, 30);
    for (String name : new String[] {"binlog.4294967297", "binlog.100000000000"}) {
      Path stray = dir.resolve(name);
      Files.copy(SegmentFile.path(dir, 1), stray);
      for (boolean isRecover : new boolean[] {false, true}) {
        IOException e = assertThrows(IOException.class, () -> Replay.read(dir, isRecover));
        assertTrue(e.getMessage().contains(stray + ": a segment index above 2147483647"), e::getMessage);
      }
      Files.delete(stray);
    }
  }
}
