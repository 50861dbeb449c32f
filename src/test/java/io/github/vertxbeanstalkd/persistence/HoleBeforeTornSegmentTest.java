package io.github.vertxbeanstalkd.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.persistence.BinlogRecord.JobSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Found while following BinlogRecoveryFuzzTest's first finding: a recover start on a log whose
 * newest segment is torn inside its header, with the segment before it missing, left a gap in the
 * ledger's segment indexes, so deleting a job written after the start threw.
 */
class HoleBeforeTornSegmentTest {
  private static final int SEGMENT_BYTES = 4096;
  @TempDir Path dir;

  @Test
  void aRecoverStartAfterAHoleAndATornHeaderTakesPutsAndDeletes() throws IOException {
    LogHarness.writeJobs(dir, SEGMENT_BYTES, 30);
    List<Path> files = SegmentFile.list(dir);
    int n = files.size();
    assertTrue(n >= 3, files::toString);
    Files.delete(files.get(n - 2));
    Files.write(files.get(n - 1), new byte[10]);
    List<JobSnapshot> left;
    BinlogConfig recover = new BinlogConfig(dir, new FsyncPolicy.Always(), SEGMENT_BYTES, true);
    try (LogHarness log = LogHarness.open(recover, new FakeDisk())) {
      left = new ArrayList<>(log.binlog.takeRecovered().jobs());
      JobSnapshot gone = left.remove(0);
      log.append(new BinlogRecord.Delete(gone.id()));
      JobSnapshot put = LogHarness.job(1000, "put after the start");
      log.append(put);
      log.append(new BinlogRecord.Delete(put.id()));
      JobSnapshot kept = LogHarness.job(1001, "kept");
      left.add(kept);
      log.awaitDurable(log.append(kept));
    }
    assertEquals(left, Replay.read(dir, true).jobs());
  }
}
