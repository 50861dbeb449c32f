package io.github.vertxbeanstalkd.persistence;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The search for jobs to migrate out of the oldest segment looks at a bounded number of its
 * snapshots per call: a mostly superseded segment is searched over several calls, each saying
 * whether it stopped at its bound, and a round that finds nothing ends instead of going on.
 */
class MigrationSearchTest {
  private static final int SNAPSHOTS = 10_000;
  private final SegmentLedger ledger = new SegmentLedger();

  @BeforeEach
  void aMostlySupersededOldestSegment() {
    // Segment 1: 10,000 snapshots, all deleted but the last three; segment 2 is the newest.
    ledger.open(1, 100);
    for (long id = 1; id <= SNAPSHOTS; id++) {
      ledger.rebase(id, 150);
    }
    for (long id = 1; id <= SNAPSHOTS - 3; id++) {
      ledger.forget(id);
    }
    ledger.open(2, 100);
  }

  @AfterEach
  void close() {
    ledger.close();
  }

  @Test
  void aSearchStopsAtItsBoundAndGoesOnWhereItStopped() {
    List<Long> found = new ArrayList<>();
    int calls = 0;
    boolean wasCut = false;
    while (found.size() < 3 && calls < 100) {
      long[] ids = ledger.liveInOldest(64, 1_000);
      calls++;
      for (long id : ids) {
        found.add(id);
      }
      if (ledger.isScanCut()) {
        wasCut = true;
        assertEquals(0, ids.length, "a call cut short at its bound found nothing yet here");
      }
    }
    assertTrue(wasCut, "the search was never cut short");
    assertEquals(List.of((long) SNAPSHOTS - 2, (long) SNAPSHOTS - 1, (long) SNAPSHOTS), found);
    assertEquals(10, calls, "ten calls of 1,000 looks each to reach the last three of 10,000");
    assertFalse(ledger.isScanCut(), "the call that found them had looks to spare");
  }

  @Test
  void nothingLeftToMigrateIsAnEmptyAnswerNotACutOne() {
    for (long id = SNAPSHOTS - 2; id <= SNAPSHOTS; id++) {
      ledger.rebase(id, 150); // migrated: based in the newest segment now
    }
    // No live job is based in segment 1 any more, so there is nothing to look for.
    assertArrayEquals(new long[0], ledger.liveInOldest(64, 1_000));
    assertFalse(ledger.isScanCut());
  }

  @Test
  void idsHandedOutButNotRewrittenAreFoundAgainInTheNextRound() {
    long[] first = ledger.liveInOldest(64, Integer.MAX_VALUE);
    assertEquals(3, first.length);
    assertFalse(ledger.isScanCut());
    // Not rewritten (the caller skipped them): the next call starts the round over and finds them again.
    long[] again = ledger.liveInOldest(64, Integer.MAX_VALUE);
    assertArrayEquals(first, again);
    assertFalse(ledger.isScanCut());
  }
}
