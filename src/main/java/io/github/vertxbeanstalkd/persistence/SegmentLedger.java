package io.github.vertxbeanstalkd.persistence;

import io.github.vertxbeanstalkd.store.DirectMemory;
import io.github.vertxbeanstalkd.store.LongList;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The engine thread's account of the log on disk: each segment's size and how many live jobs have
 * their snapshot ("base") in it, and each live job's base segment. A segment is needed while any
 * live job is based in it or in an older segment; the changes written after a job's snapshot lie in
 * the same or newer segments. So segments are deleted oldest first, once the oldest has no live
 * job, and compaction empties the oldest by rewriting its live jobs into the newest ("migration").
 */
final class SegmentLedger {

  /** One segment file as the ledger sees it. */
  static final class Segment {
    final long index;
    long bytes;
    int liveJobs;
    long liveBytes;
    /** Ids of the snapshots written here, in order; some are superseded. Off the heap. */
    private final LongList snapshotIds;
    /** Where the search for jobs to migrate resumes. */
    int migrateCursor;
    /** Snapshot ids looked at since the search last found a live one: a whole round means none is left to find. */
    int scannedSinceFound;

    Segment(long index, long bytes, DirectMemory memory) {
      this.index = index;
      this.bytes = bytes;
      this.snapshotIds = new LongList(memory);
    }

    void addSnapshot(long id) {
      snapshotIds.add(id);
    }

    int snapshotCount() {
      return snapshotIds.size();
    }
  }

  /** The ledger's own off-heap memory: a few bytes per live job and per snapshot kept, outside the job store's limit. */
  private final DirectMemory memory = new DirectMemory(0);
  private final ArrayList<Segment> segments = new ArrayList<>();
  private JobBases bases = new JobBaseIndex(memory);
  private long diskBytes;
  private long liveBytes;
  private boolean isScanCut;

  /**
   * Starts a new newest segment holding {@code headerBytes}. Its index is above every other one, but
   * need not be the next: segments lost before a recover start leave a gap.
   */
  void open(long index, long headerBytes) {
    if (!segments.isEmpty() && index <= current().index) {
      throw new IllegalArgumentException("binlog: segment " + index + " opened after segment " + current().index);
    }
    segments.add(new Segment(index, headerBytes, memory));
    diskBytes += headerBytes;
  }

  /** Counts {@code bytes} more in the newest segment: replay, once it read the segment to its end. */
  void grow(long bytes) {
    current().bytes += bytes;
    diskBytes += bytes;
  }

  /** Counts {@code frameBytes} more in the newest segment. */
  void place(int frameBytes) {
    current().bytes += frameBytes;
    diskBytes += frameBytes;
  }

  /** A snapshot of job {@code id} was placed in the newest segment; true if it was live already. */
  boolean rebase(long id, int frameBytes) {
    Segment c = current();
    boolean wasLive = unbase(bases.put(id, JobBaseIndex.pack(c.index, frameBytes)));
    c.liveJobs++;
    c.liveBytes += frameBytes;
    liveBytes += frameBytes;
    c.addSnapshot(id);
    return wasLive;
  }

  /** Job {@code id} is gone. */
  void forget(long id) {
    unbase(bases.remove(id));
  }

  private boolean unbase(long packed) {
    if (packed == JobBases.ABSENT) {
      return false;
    }
    Segment s = segment(JobBaseIndex.segmentOf(packed));
    int frameBytes = JobBaseIndex.frameBytesOf(packed);
    s.liveJobs--;
    s.liveBytes -= frameBytes;
    liveBytes -= frameBytes;
    return true;
  }

  /** Removes and returns the oldest segments that no live job needs; never the newest. */
  List<Segment> takeUnneeded() {
    if (segments.size() < 2 || segments.get(0).liveJobs != 0) {
      // The usual answer, after every append: no list made for it.
      return List.of();
    }
    List<Segment> done = new ArrayList<>(1);
    while (segments.size() > 1 && segments.get(0).liveJobs == 0) {
      Segment s = segments.remove(0);
      diskBytes -= s.bytes;
      s.snapshotIds.close();
      done.add(s);
    }
    return done;
  }

  /**
   * Up to {@code max} live jobs based in the oldest segment, when it is not also the newest, looking
   * at no more than {@code maxScanned} of its snapshot ids: the oldest is compacted when it is
   * mostly superseded snapshots, and one look per snapshot over a whole segment (about 70,000 in a
   * default 10 MiB segment of 100-byte jobs) is milliseconds of the engine's turn. A search cut short by that bound says so ({@link
   * #isScanCut}) and goes on where it stopped at the next call; one that went a whole round without
   * finding a live job ends there, and the next call starts another round.
   */
  long[] liveInOldest(int max, int maxScanned) {
    isScanCut = false;
    if (segments.size() < 2 || max <= 0) {
      return new long[0];
    }
    Segment s = segments.get(0);
    long[] ids = new long[Math.min(max, s.liveJobs)];
    int n = 0;
    int count = s.snapshotCount();
    for (int scanned = 0; n < ids.length && s.scannedSinceFound < count; scanned++) {
      if (scanned == maxScanned) {
        isScanCut = true;
        break;
      }
      if (s.migrateCursor == count) {
        // Only if ids handed out earlier were not rewritten; start over rather than stall.
        s.migrateCursor = 0;
      }
      long id = s.snapshotIds.get(s.migrateCursor++);
      s.scannedSinceFound++;
      long packed = bases.get(id);
      if (packed != JobBaseIndex.ABSENT && JobBaseIndex.segmentOf(packed) == s.index) {
        ids[n++] = id;
        s.scannedSinceFound = 0;
      }
    }
    if (!isScanCut && n < ids.length) {
      // A whole round found no more: the next call looks again from here.
      s.scannedSinceFound = 0;
    }
    return n == ids.length ? ids : Arrays.copyOf(ids, n);
  }

  /** Whether the last {@link #liveInOldest} stopped at its bound with ids still to look at. */
  boolean isScanCut() {
    return isScanCut;
  }

  /** The segment holding job {@code id}'s snapshot, or 0 if the job is not live. */
  long baseOf(long id) {
    long packed = bases.get(id);
    return packed == JobBases.ABSENT ? 0 : JobBaseIndex.segmentOf(packed);
  }

  /**
   * From now on each live job's base is kept in {@code bases} (the engine's records) instead of an
   * index of the ledger's own; only before any job is based anywhere.
   */
  void keepBasesIn(JobBases elsewhere) {
    if (!mayMoveBases()) {
      throw new IllegalStateException("binlog: job bases moved after jobs were placed, or moved twice");
    }
    bases.close();
    bases = elsewhere;
  }

  /** True while the bases are in the ledger's own index and no job is based anywhere yet. */
  boolean mayMoveBases() {
    return bases instanceof JobBaseIndex && liveBytes == 0 && segments.stream().allMatch(s -> s.liveJobs == 0);
  }

  /** Frees the ledger's memory; it must not be used again. */
  void close() {
    for (Segment s : segments) {
      s.snapshotIds.close();
    }
    segments.clear();
    bases.close();
  }

  /** Off-heap bytes the ledger holds. */
  long reservedBytes() {
    return memory.reservedBytes();
  }

  Segment current() {
    return segments.get(segments.size() - 1);
  }

  Segment oldest() {
    return segments.get(0);
  }

  int segmentCount() {
    return segments.size();
  }

  boolean isEmpty() {
    return segments.isEmpty();
  }

  long diskBytes() {
    return diskBytes;
  }

  /** Bytes of the snapshots that live jobs are based on: what a fully compacted log would hold. */
  long liveBytes() {
    return liveBytes;
  }

  private Segment segment(long index) {
    if (segments.isEmpty()) {
      throw new IllegalStateException("binlog: segment " + index + " asked of an empty ledger");
    }
    // Indexes are consecutive but after a gap, so the position is usually a subtraction.
    long guess = index - segments.get(0).index;
    if (guess >= 0 && guess < segments.size() && segments.get((int) guess).index == index) {
      return segments.get((int) guess);
    }
    int low = 0;
    int high = segments.size() - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      long at = segments.get(mid).index;
      if (at == index) {
        return segments.get(mid);
      } else if (at < index) {
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    throw new IllegalStateException("binlog: segment " + index + " is not in the ledger (segments "
        + segments.get(0).index + " to " + current().index + ")");
  }
}
