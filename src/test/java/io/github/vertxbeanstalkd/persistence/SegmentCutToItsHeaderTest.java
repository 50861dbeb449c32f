package io.github.vertxbeanstalkd.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.persistence.BinlogRecord.JobSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Found by BinlogRecoveryFuzzTest's long run: an older segment cut to its bare header read as a
 * segment that ended there, so a start without recover lost every record it held (a put, and with
 * it the job) and went on with the newer segments' changes, as if nothing had happened.
 */
class SegmentCutToItsHeaderTest {
  private static final int SEGMENT_BYTES = 4096;
  @TempDir Path dir;

  @Test
  void anOlderSegmentCutToItsHeaderIsDamageNotAnEnd() throws IOException {
    List<JobSnapshot> written = LogHarness.writeJobs(dir, SEGMENT_BYTES, 40);
    List<Path> files = SegmentFile.list(dir);
    assertTrue(files.size() >= 3, files::toString);
    Path second = SegmentFile.path(dir, 2);
    List<Long> lost = LogLayout.of(dir).units.stream()
        .filter(u -> u.file().equals(second) && u.record() instanceof JobSnapshot)
        .map(u -> ((JobSnapshot) u.record()).id()).toList();
    assertTrue(!lost.isEmpty());
    Files.write(second, Arrays.copyOf(Files.readAllBytes(second), SegmentFile.HEADER_BYTES));

    BinlogDamageException e = assertThrows(BinlogDamageException.class, () -> Replay.read(dir, false));
    assertEquals(second, e.file());
    assertEquals(SegmentFile.HEADER_BYTES, e.offset());
    assertTrue(e.getMessage().contains("does not start with a HighWater"), e::getMessage);

    RecoveredLog r = Replay.read(dir, true);
    assertEquals(1, r.damagedRegionsSkipped());
    assertEquals(written.stream().filter(j -> !lost.contains(j.id())).toList(), r.jobs());
  }

  @Test
  void theNewestSegmentMayEndRightAfterItsHeader() throws IOException {
    List<JobSnapshot> written = LogHarness.writeJobs(dir, SEGMENT_BYTES, 5);
    // A crash between the header and the HighWater of a segment just started.
    long next = SegmentFile.list(dir).size() + 1;
    Files.write(SegmentFile.path(dir, next), SegmentFile.header(next).array());
    assertEquals(written, Replay.read(dir, false).jobs());
  }
}
