package io.github.vertxbeanstalkd.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeout;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.persistence.BinlogRecord.JobSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ledger found a segment by its distance from the oldest, so every gap in the indexes (segments
 * lost before a recover start) needed an empty stand-in per missing index: a gap the stand-ins
 * missed sent a job to the wrong segment or out of bounds (the IndexOutOfBoundsException from
 * {@code SegmentLedger.restore} that BinlogRecoveryFuzzTest reported), and a stray copy named far
 * ahead cost one stand-in per index in between, millions of them.
 */
class SegmentIndexGapTest {
  private static final int SEGMENT_BYTES = 4096;
  @TempDir Path dir;

  @Test
  void theLedgerFindsSegmentsAcrossAGap() {
    SegmentLedger ledger = new SegmentLedger();
    ledger.open(1, 100);
    ledger.rebase(10, 40);
    ledger.open(2, 100);
    ledger.open(5, 100);
    ledger.rebase(11, 50);
    ledger.open(6, 100);
    ledger.rebase(12, 60);
    assertEquals(5, ledger.baseOf(11));
    assertEquals(6, ledger.baseOf(12));
    assertEquals(150, ledger.liveBytes());

    ledger.forget(12);
    ledger.forget(10);
    assertEquals(List.of(1L, 2L), ledger.takeUnneeded().stream().map(s -> s.index).toList());
    assertEquals(5, ledger.oldest().index);
    assertEquals(1, ledger.oldest().liveJobs);
    assertEquals(0, ledger.current().liveJobs);
    assertEquals(50, ledger.liveBytes());
  }

  @Test
  void aSegmentOpenedOutOfOrderIsRefused() {
    SegmentLedger ledger = new SegmentLedger();
    ledger.open(3, 100);
    assertThrows(IllegalArgumentException.class, () -> ledger.open(3, 100));
  }

  @Test
  void aRecoverStartWithACopyNamedFarAheadOpensAtOnce() throws IOException {
    List<JobSnapshot> written = LogHarness.writeJobs(dir, SEGMENT_BYTES, 30);
    // An operator's backup, named by date: a segment name, with a hole of 20 million before it.
    Files.copy(SegmentFile.path(dir, 1), dir.resolve("binlog.20261125"));
    BinlogConfig recover = new BinlogConfig(dir, new FsyncPolicy.Always(), SEGMENT_BYTES, true);
    List<JobSnapshot> left = new ArrayList<>();
    assertTimeout(Duration.ofSeconds(10), () -> {
      try (LogHarness log = LogHarness.open(recover, new FakeDisk())) {
        left.addAll(log.binlog.takeRecovered().jobs());
        assertEquals(written, left);
        assertEquals(20_261_126, log.binlog.stats().currentIndex());
        JobSnapshot gone = left.remove(0);
        log.append(new BinlogRecord.Delete(gone.id()));
        JobSnapshot put = LogHarness.job(1000, "put after the start");
        log.append(put);
        log.append(new BinlogRecord.Delete(put.id()));
        JobSnapshot kept = LogHarness.job(1001, "kept");
        left.add(kept);
        log.awaitDurable(log.append(kept));
      }
    });
    assertEquals(left, Replay.read(dir, true).jobs());
  }
}
