package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.bus.JobCursor;
import io.github.vertxbeanstalkd.bus.JobPage;
import io.github.vertxbeanstalkd.bus.JobQuery;
import io.github.vertxbeanstalkd.bus.ListedJob;
import io.github.vertxbeanstalkd.protocol.JobState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pages through a tube's jobs in one state, in serving order, for the admin API: the walks it
 * keeps (a few, the least recently used dropped first, and none idle for long) and the pages read
 * from them. A page does at most {@link #STEPS_PER_PAGE} steps and searches at most
 * {@link #FILTER_BYTES_PER_PAGE} body bytes, then answers with what it found and where to go on.
 * Each job is checked when listed: one that left the state since its walk began is skipped, and
 * one that entered it since shows in the next walk (a page asked with no cursor starts one).
 */
final class JobListing {
  /** Steps a page may take: about a millisecond of keys read or sorted, on a million-job tube. */
  static final int STEPS_PER_PAGE = 4096;
  static final long FILTER_BYTES_PER_PAGE = 1 << 20;
  static final int MAX_WALKS = 4;
  /**
   * The heap the kept walks may hold together (a walk holds about 20 bytes a job: a deep tube's walk
   * is tens of MiB): past it, the least recently used other walks are dropped, so at most one walk
   * of a deep tube is held at a time. An eighth of the heap, where the heap budget leaves room for
   * what is not connections (config/HeapBudget).
   */
  static final long DEFAULT_WALKS_HEAP_BYTES = Runtime.getRuntime().maxMemory() / 8;
  static final long IDLE_NANOS = 60 * Clock.SECOND_NANOS;

  private final JobTable table;
  private final Tubes tubes;
  private final JobTransitions jobs;
  private final Clock clock;
  /** By tube name and state, least recently used first. */
  private final LinkedHashMap<String, JobWalk> walks = new LinkedHashMap<>(8, 0.75f, true);
  private byte[] scratch = new byte[256];
  private final long walksHeapBytes;

  JobListing(JobTable table, Tubes tubes, JobTransitions jobs, Clock clock) {
    this(table, tubes, jobs, clock, DEFAULT_WALKS_HEAP_BYTES);
  }

  JobListing(JobTable table, Tubes tubes, JobTransitions jobs, Clock clock, long walksHeapBytes) {
    this.walksHeapBytes = walksHeapBytes;
    this.table = table;
    this.tubes = tubes;
    this.jobs = jobs;
    this.clock = clock;
  }

  /** The page {@code query} asks for, or as much of it as one turn's work finds. */
  JobPage page(JobQuery query) {
    long now = clock.nanos();
    dropIdle(now);
    Tube t = tubes.get(query.tube());
    if (t == null) {
      return new JobPage(List.of(), null, null, null, true, true);
    }
    String name = query.state().word() + " " + query.tube();
    JobWalk walk = walks.get(name);
    if (walk == null || query.isFresh() || walk.tubeIndex != t.index) {
      walk = JobWalk.of(t, query.state(), jobs);
      walks.put(name, walk);
      if (walks.size() > MAX_WALKS) {
        Iterator<JobWalk> oldest = walks.values().iterator();
        oldest.next();
        oldest.remove();
      }
      dropPast(walk);
    }
    walk.lastUsedNanos = now;
    WorkBudget budget = new WorkBudget(STEPS_PER_PAGE, FILTER_BYTES_PER_PAGE);
    JobCursor from = query.isBackwards() ? query.before() : query.after() == null ? JobCursor.START : query.after();
    if (!walk.build(table, t, budget)) {
      return new JobPage(List.of(), null, null, from, false, false);
    }
    return query.isBackwards() ? backwards(walk, query, budget, now) : forwards(walk, query, budget, now);
  }

  /** Drops the walks no page has used for {@link #IDLE_NANOS}, and those of tubes gone. */
  void dropIdle(long now) {
    walks.values().removeIf(w -> now - w.lastUsedNanos > IDLE_NANOS || tubes.at(w.tubeIndex) == null);
  }

  /** Drops the least recently used walks but {@code kept} while the walks hold more than their heap. */
  private void dropPast(JobWalk kept) {
    long held = 0;
    for (JobWalk w : walks.values()) {
      held += w.heapBytes();
    }
    Iterator<JobWalk> oldest = walks.values().iterator();
    while (held > walksHeapBytes && oldest.hasNext()) {
      JobWalk w = oldest.next();
      if (w != kept) {
        held -= w.heapBytes();
        oldest.remove();
      }
    }
  }

  /** How many walks are kept. */
  int walkCount() {
    return walks.size();
  }

  private JobPage forwards(JobWalk walk, JobQuery query, WorkBudget budget, long now) {
    JobCursor after = query.after() == null ? JobCursor.START : query.after();
    int k = walk.firstAfter(after);
    // Sort on until the first key after the cursor is out.
    while (k == walk.sortedCount() && !walk.isSorted()) {
      if (!budget.take()) {
        return new JobPage(List.of(), null, null, after, false, false);
      }
      walk.sortOne();
      if (walk.order(k) < after.order() || (walk.order(k) == after.order() && walk.id(k) <= after.id())) {
        k++;
      }
    }
    int start = k;
    List<ListedJob> listed = new ArrayList<>();
    JobCursor resume = null;
    while (listed.size() < query.limit()) {
      if (k == walk.sortedCount() && walk.isSorted()) {
        break;
      }
      if (!budget.take() || (query.filter() != null && !budget.hasBytes())) {
        resume = k > start ? walk.key(k - 1) : after;
        break;
      }
      if (k == walk.sortedCount()) {
        walk.sortOne();
      }
      visit(walk, k++, query, budget, now, listed);
    }
    boolean isAtEnd = k == walk.sortedCount() && walk.isSorted();
    return new JobPage(listed, k > start ? walk.key(start) : null, k > start ? walk.key(k - 1) : null, resume,
        start == 0, isAtEnd);
  }

  private JobPage backwards(JobWalk walk, JobQuery query, WorkBudget budget, long now) {
    JobCursor before = query.before();
    // Sort on until a key at or past the cursor is out, so every key before it is.
    while (!walk.isSorted() && (walk.sortedCount() == 0 || less(walk.key(walk.sortedCount() - 1), before))) {
      if (!budget.take()) {
        return new JobPage(List.of(), null, null, before, false, false);
      }
      walk.sortOne();
    }
    int k = walk.lastBefore(before);
    int start = k;
    List<ListedJob> listed = new ArrayList<>();
    JobCursor resume = null;
    while (listed.size() < query.limit() && k >= 0) {
      if (!budget.take() || (query.filter() != null && !budget.hasBytes())) {
        resume = k < start ? walk.key(k + 1) : before;
        break;
      }
      visit(walk, k--, query, budget, now, listed);
    }
    Collections.reverse(listed);
    boolean isAtEnd = walk.isSorted() && start == walk.sortedCount() - 1;
    return new JobPage(listed, k < start ? walk.key(k + 1) : null, k < start ? walk.key(start) : null, resume,
        k < 0, isAtEnd);
  }

  /** Lists the job at sorted index {@code k} if it is still there, as it was keyed, and its body matches. */
  private void visit(JobWalk walk, int k, JobQuery query, WorkBudget budget, long now, List<ListedJob> listed) {
    long id = walk.id(k);
    int j = table.find(id);
    if (j == JobTable.NONE || table.state(j) != walk.state || table.tube(j) != walk.tubeIndex
        || (walk.state != JobState.BURIED && JobWalk.orderOf(table, j, walk.state) != walk.order(k))) {
      return;
    }
    if (query.filter() != null && !contains(j, query.filter(), budget)) {
      return;
    }
    listed.add(describe(j, walk.key(k), query.previewBytes(), now));
  }

  private boolean contains(int j, byte[] needle, WorkBudget budget) {
    int length = table.bodyLength(j);
    budget.spendBytes(length);
    if (needle.length > length) {
      return false;
    }
    if (scratch.length < length) {
      scratch = new byte[Math.max(length, scratch.length * 2)];
    }
    table.copyBodyStart(j, scratch, length);
    return indexOf(scratch, length, needle) >= 0;
  }

  static int indexOf(byte[] haystack, int length, byte[] needle) {
    if (needle.length == 0) {
      return 0;
    }
    byte first = needle[0];
    for (int i = 0, last = length - needle.length; i <= last; i++) {
      if (haystack[i] != first) {
        continue;
      }
      int n = 1;
      while (n < needle.length && haystack[i + n] == needle[n]) {
        n++;
      }
      if (n == needle.length) {
        return i;
      }
    }
    return -1;
  }

  private ListedJob describe(int j, JobCursor key, int previewBytes, long now) {
    JobState state = table.state(j);
    long timeLeft = state == JobState.DELAYED || state == JobState.RESERVED
        ? Math.max(0, table.deadlineNanos(j) - now) / Clock.SECOND_NANOS : 0;
    int length = table.bodyLength(j);
    byte[] start = new byte[Math.min(Math.max(previewBytes, 0), length)];
    table.copyBodyStart(j, start, start.length);
    long id = table.id(j);
    DeadLetterNotes.Note note = jobs.notes.of(id);
    return new ListedJob(id, state, key, Integer.toUnsignedLong(table.priority(j)),
        (now - table.createdNanos(j)) / Clock.SECOND_NANOS, Integer.toUnsignedLong(table.delaySeconds(j)), timeLeft,
        Integer.toUnsignedLong(table.ttrSeconds(j)), length, table.reserves(j), table.timeouts(j),
        table.releases(j), table.buries(j), table.kicks(j), note == null ? "" : note.deadLetteredFrom(), start);
  }

  private static boolean less(JobCursor a, JobCursor b) {
    return a.compareTo(b) < 0;
  }

  /** For tests: the walks kept, by "state tube". */
  Map<String, JobWalk> walks() {
    return walks;
  }
}
