package io.github.vertxbeanstalkd.engine;

import static io.github.vertxbeanstalkd.engine.Commands.bury;
import static io.github.vertxbeanstalkd.engine.Commands.delete;
import static io.github.vertxbeanstalkd.engine.Commands.kick;
import static io.github.vertxbeanstalkd.engine.Commands.put;
import static io.github.vertxbeanstalkd.engine.Commands.release;
import static io.github.vertxbeanstalkd.engine.Commands.reserve;
import static io.github.vertxbeanstalkd.engine.Commands.reserveJob;
import static io.github.vertxbeanstalkd.engine.Commands.use;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.bus.JobCursor;
import io.github.vertxbeanstalkd.bus.JobPage;
import io.github.vertxbeanstalkd.bus.JobQuery;
import io.github.vertxbeanstalkd.bus.ListedJob;
import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.JobState;
import io.github.vertxbeanstalkd.protocol.TubeSettings;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Listing a tube's jobs by state: serving order, cursors both ways, the body filter, the fields of
 * each job, and the bound on each page's work.
 */
class JobListingTest {
  final EngineFixture f = new EngineFixture();
  final Session producer = f.open();
  final Session worker = f.open();

  JobPage page(String tube, JobState state, JobCursor after, JobCursor before, int limit, String filter) {
    return f.engine.listJobs(new JobQuery(tube, state, after, before, limit,
        filter == null ? null : filter.getBytes(StandardCharsets.UTF_8), 16));
  }

  JobPage first(JobState state, int limit) {
    return page("default", state, null, null, limit, null);
  }

  static List<Long> ids(JobPage page) {
    List<Long> ids = new ArrayList<>();
    page.jobs().forEach(j -> ids.add(j.id()));
    return ids;
  }

  /** Every job of the walk, page after page, asking on from where each page stopped; counts the pages. */
  record Walk(List<Long> ids, int pages, int cutPages) {}

  Walk walkAll(String tube, JobState state, int limit, String filter) {
    List<Long> ids = new ArrayList<>();
    JobPage p = page(tube, state, null, null, limit, filter);
    int pages = 1;
    int cut = 0;
    while (true) {
      assertTrue(p.jobs().size() <= limit);
      ids.addAll(ids(p));
      if (p.isCut()) {
        cut++;
        p = page(tube, state, p.resume(), null, limit, filter);
      } else if (!p.isAtEnd()) {
        p = page(tube, state, p.last(), null, limit, filter);
      } else {
        return new Walk(ids, pages, cut);
      }
      pages++;
      assertTrue(pages < 100_000, "the walk ends");
    }
  }

  @Test
  void readyJobsListInPriorityThenIdOrder() {
    f.send(producer, put(5, 0, 60, "a"), put(1, 0, 60, "b"), put(5, 0, 60, "c"), put(0, 0, 60, "d"),
        put(4294967295L, 0, 60, "e"));
    assertEquals(List.of(4L, 2L, 1L, 3L, 5L), ids(first(JobState.READY, 10)));
  }

  @Test
  void theFirstReadyJobListedIsTheOneReserveHandsOut() {
    for (int i = 0; i < 50; i++) {
      f.one(producer, put((i * 7919) % 13, 0, 60, "job"));
    }
    long listed = first(JobState.READY, 1).jobs().get(0).id();
    assertEquals("RESERVED " + listed + " job", f.one(worker, reserve()));
  }

  @Test
  void delayedJobsListByDeadlineThenId() {
    f.send(producer, put(0, 30, 60, "a"), put(0, 10, 60, "b"), put(0, 30, 60, "c"), put(0, 20, 60, "d"));
    assertEquals(List.of(2L, 4L, 1L, 3L), ids(first(JobState.DELAYED, 10)));
  }

  @Test
  void buriedJobsListInBurialOrderAsKickTakesThem() {
    f.send(producer, put("a"), put("b"), put("c"));
    for (long id : new long[] {3, 1, 2}) {
      f.one(worker, reserveJob(id));
      f.one(worker, bury(id, 0));
    }
    assertEquals(List.of(3L, 1L, 2L), ids(first(JobState.BURIED, 10)));
    f.one(producer, kick(1));
    assertEquals("ready", f.state(3));
    assertEquals(List.of(1L, 2L), ids(first(JobState.BURIED, 10)));
  }

  @Test
  void reservedJobsListByTheirTtrDeadline() {
    f.send(producer, put(0, 0, 50, "a"), put(0, 0, 10, "b"), put(0, 0, 30, "c"));
    f.send(worker, reserve(), reserve(), reserve());
    assertEquals(List.of(2L, 3L, 1L), ids(first(JobState.RESERVED, 10)));
  }

  @Test
  void onlyTheTubesJobsAreListed() {
    f.send(producer, put("a"), use("other"), put("b"), put(0, 5, 60, "c"));
    f.send(worker, reserveJob(2));
    assertEquals(List.of(1L), ids(first(JobState.READY, 10)));
    assertEquals(List.of(), ids(first(JobState.RESERVED, 10)));
    assertEquals(List.of(2L), ids(page("other", JobState.RESERVED, null, null, 10, null)));
    assertEquals(List.of(3L), ids(page("other", JobState.DELAYED, null, null, 10, null)));
  }

  @Test
  void aTubeThatDoesNotExistListsNothing() {
    JobPage p = page("nowhere", JobState.READY, null, null, 10, null);
    assertEquals(List.of(), p.jobs());
    assertTrue(p.isAtStart() && p.isAtEnd());
  }

  @Test
  void pagesGoOnAfterTheLastKeySeenAndBackBeforeTheFirst() {
    for (int i = 0; i < 10; i++) {
      f.one(producer, put(i % 2, 0, 60, "job"));
    }
    // Priority 0: 1 3 5 7 9, then priority 1: 2 4 6 8 10.
    JobPage one = first(JobState.READY, 4);
    assertEquals(List.of(1L, 3L, 5L, 7L), ids(one));
    assertTrue(one.isAtStart());
    assertFalse(one.isAtEnd());
    JobPage two = page("default", JobState.READY, one.last(), null, 4, null);
    assertEquals(List.of(9L, 2L, 4L, 6L), ids(two));
    assertFalse(two.isAtStart());
    JobPage three = page("default", JobState.READY, two.last(), null, 4, null);
    assertEquals(List.of(8L, 10L), ids(three));
    assertTrue(three.isAtEnd());
    JobPage back = page("default", JobState.READY, null, three.first(), 4, null);
    assertEquals(List.of(9L, 2L, 4L, 6L), ids(back));
    JobPage backAgain = page("default", JobState.READY, null, back.first(), 4, null);
    assertEquals(List.of(1L, 3L, 5L, 7L), ids(backAgain));
    assertTrue(backAgain.isAtStart());
  }

  @Test
  void aCursorIsAKeyNotAPositionSoDeletedJobsDoNotShiftPages() {
    for (int i = 0; i < 6; i++) {
      f.one(producer, put("job"));
    }
    JobPage one = first(JobState.READY, 3);
    f.send(producer, delete(1), delete(2));
    assertEquals(List.of(4L, 5L, 6L), ids(page("default", JobState.READY, one.last(), null, 3, null)));
  }

  @Test
  void aJobThatLeftTheStateIsSkippedAndANewWalkSeesNewJobs() {
    f.send(producer, put("a"), put("b"), put("c"));
    JobPage one = first(JobState.READY, 1);
    f.one(worker, reserveJob(2));
    f.one(producer, put("d"));
    // The walk begun by the first page lists what was ready then and still is.
    assertEquals(List.of(3L), ids(page("default", JobState.READY, one.last(), null, 10, null)));
    assertEquals(List.of(1L, 3L, 4L), ids(first(JobState.READY, 10)));
  }

  @Test
  void aJobReleasedWithAnotherPriorityIsNotListedTwice() {
    f.send(producer, put(5, 0, 60, "a"), put(5, 0, 60, "b"));
    JobPage one = first(JobState.READY, 1);
    assertEquals(List.of(1L), ids(one));
    f.one(worker, reserveJob(1));
    f.one(worker, release(1, 9, 0));
    // Job 1 is ready again, keyed after job 2 now: this walk still has it before, so it is left out.
    assertEquals(List.of(2L), ids(page("default", JobState.READY, one.last(), null, 10, null)));
    assertEquals(List.of(2L, 1L), ids(first(JobState.READY, 10)));
  }

  @Test
  void theFilterMatchesAByteSubstringOfTheBody() {
    f.send(producer, put("order 17 paid"), put("order 18 failed"), put("refund 17"), put("ORDER 17"));
    assertEquals(List.of(1L, 3L, 4L), ids(page("default", JobState.READY, null, null, 10, "17")));
    // Bytes, not words: case counts.
    assertEquals(List.of(1L, 2L), ids(page("default", JobState.READY, null, null, 10, "order")));
    assertEquals(List.of(2L), ids(page("default", JobState.READY, null, null, 10, "18 f")));
    assertEquals(List.of(), ids(page("default", JobState.READY, null, null, 10, "order 17 paid!")));
  }

  @Test
  void eachJobCarriesWhatStatsJobShowsAndTheStartOfItsBody() {
    f.one(producer, put(7, 0, 30, "a body longer than sixteen bytes"));
    f.passSeconds(3);
    f.one(worker, reserve());
    f.passSeconds(2);
    ListedJob job = first(JobState.RESERVED, 1).jobs().get(0);
    assertEquals(1, job.id());
    assertEquals(JobState.RESERVED, job.state());
    assertEquals(7, job.priority());
    assertEquals(5, job.ageSeconds());
    assertEquals(30, job.ttrSeconds());
    assertEquals(Long.parseLong(f.statsJob(1).get("time-left")), job.timeLeftSeconds());
    assertEquals(28, job.timeLeftSeconds());
    assertEquals(32, job.bodyBytes());
    assertEquals(1, job.reserves());
    assertEquals("a body longer th", new String(job.bodyStart(), StandardCharsets.UTF_8));
  }

  @Test
  void aDelayedJobShowsItsDelayAndTimeLeft() {
    f.one(producer, put(0, 20, 60, "x"));
    f.passSeconds(5);
    ListedJob job = first(JobState.DELAYED, 1).jobs().get(0);
    assertEquals(20, job.delaySeconds());
    assertEquals(15, job.timeLeftSeconds());
  }

  @Test
  void aDeadLetteredJobSaysWhichTubeBuriedIt() {
    f.engine.setTubeSettings("default", new TubeSettings(null, null, 1L, null));
    f.one(producer, put("x"));
    f.one(worker, reserve());
    f.one(worker, release(1, 0, 0));
    assertEquals("default", first(JobState.BURIED, 1).jobs().get(0).deadLetteredFrom());
  }

  @Test
  void aBigTubeIsWalkedInBoundedPagesEveryJobOnceInOrder() {
    int n = JobListing.STEPS_PER_PAGE * 3 + 17;
    List<Command> puts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      puts.add(put((i * 31L) % 97, 0, 60, "job"));
    }
    f.send(producer, puts.toArray(Command[]::new));
    JobPage firstPage = first(JobState.READY, 50);
    // Reading n keys takes more than one page's steps: the first answer has no job, and where to go on.
    assertTrue(firstPage.isCut());
    assertEquals(List.of(), firstPage.jobs());
    Walk walk = walkAll("default", JobState.READY, 500, null);
    assertEquals(n, walk.ids().size());
    assertEquals(n, walk.ids().stream().distinct().count());
    List<Long> expected = new ArrayList<>(walk.ids());
    expected.sort((a, b) -> {
      long pa = ((a - 1) * 31L) % 97;
      long pb = ((b - 1) * 31L) % 97;
      return pa != pb ? Long.compare(pa, pb) : Long.compare(a, b);
    });
    assertEquals(expected, walk.ids());
    assertTrue(walk.cutPages() >= 3, "cut pages: " + walk.cutPages());
  }

  @Test
  void aFilterScanStopsAtItsByteBoundAndGoesOnFromThere() {
    byte[] big = new byte[60_000];
    java.util.Arrays.fill(big, (byte) 'x');
    int n = 40;
    for (int i = 0; i < n; i++) {
      byte[] body = big.clone();
      if (i % 10 == 9) {
        body[100] = 'Y';
      }
      f.one(producer, new Command.Put(0, 0, 60, body, true));
    }
    JobPage p = page("default", JobState.READY, null, null, 50, "Y");
    // 1 MiB of bodies is 18 of them: the page stops there, with the one match among them.
    assertTrue(p.isCut());
    assertEquals(List.of(10L), ids(p));
    assertEquals(List.of(10L, 20L, 30L, 40L), walkAll("default", JobState.READY, 50, "Y").ids());
  }

  @Test
  void aBuriedWalkGoesOnWhenTheJobItStoppedAtIsKicked() {
    int n = JobListing.STEPS_PER_PAGE + 10;
    List<Command> puts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      puts.add(put("job"));
    }
    f.send(producer, puts.toArray(Command[]::new));
    for (int i = 1; i <= n; i++) {
      f.one(worker, reserveJob(i));
      f.one(worker, bury(i, 0));
    }
    JobPage p = first(JobState.BURIED, 10);
    assertTrue(p.isCut());
    // The walk read the first STEPS_PER_PAGE buried jobs; the last of them leaves the list.
    f.one(producer, Commands.kickJob(JobListing.STEPS_PER_PAGE));
    List<Long> ids = new ArrayList<>();
    JobCursor at = p.resume();
    while (true) {
      JobPage next = page("default", JobState.BURIED, at, null, 1000, null);
      ids.addAll(ids(next));
      if (!next.isCut() && next.isAtEnd()) {
        break;
      }
      at = next.isCut() ? next.resume() : next.last();
    }
    assertEquals(n - 1, ids.size());
    assertEquals(n - 1, ids.stream().distinct().count());
    assertFalse(ids.contains((long) JobListing.STEPS_PER_PAGE));
  }

  @Test
  void walksBeyondTheirHeapDropTheLeastRecentlyUsed() {
    // A walk of 100 ready jobs holds 2,000 bytes (16 a job for keys, 4 for the copied slots).
    f.engine.limitListingHeap(3_000);
    for (String tube : List.of("a", "b")) {
      f.send(producer, use(tube));
      for (int i = 0; i < 100; i++) {
        f.send(producer, put("x"));
      }
      page(tube, JobState.READY, null, null, 1, null);
    }
    assertEquals(1, f.engine.listing().walkCount(), "two deep walks do not fit: the older one goes");
    f.engine.limitListingHeap(5_000);
    page("a", JobState.READY, null, null, 1, null);
    page("b", JobState.READY, null, null, 1, null);
    assertEquals(2, f.engine.listing().walkCount(), "both fit");
  }

  @Test
  void walksIdleForAMinuteAreDroppedAndOnlyAFewAreKept() {
    f.one(producer, put("x"));
    for (String tube : List.of("a", "b", "c", "d", "e")) {
      f.send(producer, use(tube), put("x"));
      page(tube, JobState.READY, null, null, 1, null);
    }
    assertEquals(JobListing.MAX_WALKS, f.engine.listing().walkCount());
    f.passSeconds(61);
    f.engine.trimJobStore();
    assertEquals(0, f.engine.listing().walkCount());
  }

  @Test
  void aPageAfterTheLastJobIsEmptyAndAtTheEnd() {
    f.one(producer, put("x"));
    JobPage p = page("default", JobState.READY, new JobCursor(0, 1), null, 10, null);
    assertEquals(List.of(), p.jobs());
    assertTrue(p.isAtEnd());
    assertNull(p.resume());
  }
}
