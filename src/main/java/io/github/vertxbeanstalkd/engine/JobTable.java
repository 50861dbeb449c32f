package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.persistence.JobBases;
import io.github.vertxbeanstalkd.protocol.JobState;
import io.github.vertxbeanstalkd.store.BodyStore;
import io.github.vertxbeanstalkd.store.DirectMemory;
import io.github.vertxbeanstalkd.store.IdIndex;
import io.github.vertxbeanstalkd.store.ItemPool;
import java.nio.ByteBuffer;

/**
 * Every live job, off the GC heap: a fixed-size record per job in {@link ItemPool} pages, named by
 * its int slot, the body in the {@link BodyStore}, and the id-to-slot {@link IdIndex}. A million
 * queued jobs are a few hundred pages, not a million objects. Tubes and sessions are named by their
 * index. Engine thread only.
 */
final class JobTable {
  /**
   * The most memory one trim gives back (a drained backlog's pages then go over seconds, a 1 GiB
   * backlog's in about two minutes). Giving pages back costs CPU on this core: the engine's
   * unmapping, or the JVM's periodic native-heap trim of what libc kept. All at once it was a stall:
   * after a backlog of 1.5M jobs was deleted, one native-heap trim of 293 MiB took 40 ms of the
   * core, inside the next put c=50 window.
   */
  static final long TRIM_BYTES_PER_CALL = 8L << 20;

  static final int NONE = -1;
  private static final JobState[] STATES = JobState.values();

  // The record's layout, in bytes.
  private static final int ID = 0;
  private static final int CREATED_NANOS = 8;
  /** When a delayed job becomes ready, or when a reserved job's TTR runs out. */
  private static final int DEADLINE_NANOS = 16;
  private static final int BODY_REF = 24;
  private static final int BODY_LENGTH = 32;
  private static final int PRIORITY = 36;
  private static final int DELAY_SECONDS = 40;
  private static final int TTR_SECONDS = 44;
  private static final int TUBE = 48;
  private static final int RESERVED_BY = 52;
  /** Position in the tube's ready or delayed heap (the states are exclusive). */
  private static final int TUBE_HEAP_POSITION = 56;
  /** Position in the deadline heap (delayed and reserved jobs). */
  private static final int DEADLINE_HEAP_POSITION = 60;
  /** Links in the tube's buried list or the holder's reserved list (the states are exclusive). */
  private static final int PREVIOUS = 64;
  private static final int NEXT = 68;
  private static final int RESERVES = 72;
  private static final int TIMEOUTS = 76;
  private static final int RELEASES = 80;
  private static final int BURIES = 84;
  private static final int KICKS = 88;
  private static final int STATE = 92;
  /** Where the binlog holds the job's latest snapshot ({@link io.github.vertxbeanstalkd.persistence.JobBases}). */
  private static final int LOG_BASE = 96;
  static final int RECORD_BYTES = 104;
  /**
   * 16,384 records (1.6 MiB) a page, or 65,536 (6.5 MiB, three huge pages and 0.5 MiB) where pages
   * grow in place ({@link DirectMemory#growsInPlace()}): a larger page grown by copies made
   * longer copies, which set the puts' tail.
   */
  private static final int RECORDS_PER_PAGE_LOG2 = 14;
  private static final int RECORDS_PER_GROWN_IN_PLACE_PAGE_LOG2 = 16;

  private final DirectMemory memory;
  private final ItemPool records;
  private final BodyStore bodies;
  private final IdIndex index;

  JobTable(DirectMemory memory) {
    this.memory = memory;
    this.records = new ItemPool(memory, RECORD_BYTES,
        memory.growsInPlace() ? RECORDS_PER_GROWN_IN_PLACE_PAGE_LOG2 : RECORDS_PER_PAGE_LOG2);
    this.bodies = new BodyStore(memory);
    this.index = new IdIndex(memory, this::id);
  }

  int size() {
    return index.size();
  }

  /**
   * A new job's slot; its body is copied into the store. Throws {@link OutOfMemoryError}, with
   * nothing stored, when the off-heap memory is exhausted.
   */
  int add(long id, int tube, byte[] body, long createdNanos, int priority, int delaySeconds, int ttrSeconds) {
    return add(id, tube, bodies.store(body), body.length, createdNanos, priority, delaySeconds, ttrSeconds);
  }

  /** A new job whose body is {@code source[from, from + length)}, copied into the store. */
  int add(long id, int tube, byte[] source, int from, int length, long createdNanos, int priority,
      int delaySeconds, int ttrSeconds) {
    return add(id, tube, bodies.store(source, from, length), length, createdNanos, priority, delaySeconds,
        ttrSeconds);
  }

  /** A new job whose body of {@code bodyLength} bytes {@code body} writes straight into the store. */
  int add(long id, int tube, int bodyLength, BodyStore.Writer body, long createdNanos, int priority,
      int delaySeconds, int ttrSeconds) {
    return add(id, tube, bodies.store(bodyLength, body), bodyLength, createdNanos, priority, delaySeconds,
        ttrSeconds);
  }

  private int add(long id, int tube, long bodyRef, int bodyLength, long createdNanos, int priority,
      int delaySeconds, int ttrSeconds) {
    int j;
    try {
      j = records.allocate();
    } catch (OutOfMemoryError e) {
      bodies.free(bodyRef);
      throw e;
    }
    ByteBuffer r = records.page(j);
    int at = records.offset(j);
    r.putLong(at + ID, id);
    r.putLong(at + CREATED_NANOS, createdNanos);
    r.putLong(at + DEADLINE_NANOS, 0);
    r.putLong(at + BODY_REF, bodyRef);
    r.putInt(at + BODY_LENGTH, bodyLength);
    r.putInt(at + PRIORITY, priority);
    r.putInt(at + DELAY_SECONDS, delaySeconds);
    r.putInt(at + TTR_SECONDS, ttrSeconds);
    r.putInt(at + TUBE, tube);
    r.putInt(at + RESERVED_BY, NONE);
    r.putInt(at + TUBE_HEAP_POSITION, NONE);
    r.putInt(at + DEADLINE_HEAP_POSITION, NONE);
    r.putInt(at + PREVIOUS, NONE);
    r.putInt(at + NEXT, NONE);
    r.putInt(at + RESERVES, 0);
    r.putInt(at + TIMEOUTS, 0);
    r.putInt(at + RELEASES, 0);
    r.putInt(at + BURIES, 0);
    r.putInt(at + KICKS, 0);
    r.put(at + STATE, (byte) JobState.READY.ordinal());
    r.putLong(at + LOG_BASE, JobBases.ABSENT);
    index.put(id, j);
    return j;
  }

  /**
   * The binlog's account of where each job's snapshot is, kept in the jobs' records: a job must be
   * held when its snapshot or its delete is placed in the log.
   */
  JobBases logBases() {
    return new JobBases() {
      @Override
      public long get(long id) {
        int j = find(id);
        return j == NONE ? ABSENT : logBase(j);
      }

      @Override
      public long put(long id, long packed) {
        int j = find(id);
        if (j == NONE) {
          throw new IllegalStateException("binlog: a snapshot of job " + id + ", which the store does not hold");
        }
        long old = logBase(j);
        setLogBase(j, packed);
        return old;
      }

      @Override
      public long remove(long id) {
        int j = find(id);
        if (j == NONE) {
          return ABSENT;
        }
        long old = logBase(j);
        setLogBase(j, ABSENT);
        return old;
      }
    };
  }

  /**
   * The first slot from {@code from} on that may hold a job, or {@link #NONE} past the last: with
   * {@link #isLive}, a walk over the jobs in slot order. A job never changes slot, so one live for
   * the whole walk is met exactly once.
   */
  int nextSlot(int from) {
    int j = records.nextTouched(from);
    return j < 0 ? NONE : j;
  }

  /** Whether slot {@code j}, one {@link #nextSlot} gave, holds a job now (a freed slot is in no job's index entry). */
  boolean isLive(int j) {
    return index.get(id(j)) == j;
  }

  /** The slot of the job with that id, or {@link #NONE}. */
  int find(long id) {
    return index.get(id);
  }

  void remove(int j) {
    index.remove(id(j));
    bodies.free(bodyRef(j));
    records.free(j);
  }

  /** A copy of the job's body. */
  byte[] body(int j) {
    return bodies.read(bodyRef(j), bodyLength(j));
  }

  /** Copies the job's body into {@code target} from index 0; it must hold {@link #bodyLength} bytes. */
  void copyBody(int j, byte[] target) {
    copyBody(j, target, 0);
  }

  /** Copies the job's body into {@code target} from index {@code at}. */
  void copyBody(int j, byte[] target, int at) {
    bodies.read(bodyRef(j), bodyLength(j), target, at);
  }

  /** Copies the first {@code length} bytes of the job's body, at most its length, into {@code target}. */
  void copyBodyStart(int j, byte[] target, int length) {
    bodies.read(bodyRef(j), length, target, 0);
  }

  /** The off-heap memory the job store takes its blocks from, the heaps' arrays included. */
  DirectMemory memory() {
    return memory;
  }

  /** Off-heap bytes held for jobs: records, bodies, the index and the heaps, with their slack. */
  long reservedBytes() {
    return memory.reservedBytes();
  }

  /**
   * Off-heap bytes that hold job data: what {@link #reservedBytes()} counts less the room in
   * record and body pages that no job uses (which the next jobs fill before a page is added).
   */
  long usedBytes() {
    return memory.reservedBytes() - records.freeBytes() - bodies.freeBytes();
  }

  /** The room a new job with a body of {@code length} bytes takes: its record and its body's size class. */
  long roomFor(int length) {
    return RECORD_BYTES + bodies.roomFor(length);
  }

  /**
   * Gives back pages that stayed empty for a while, at most {@link #TRIM_BYTES_PER_CALL} of them a
   * call; about once a second.
   */
  void trim() {
    long released = records.trim(TRIM_BYTES_PER_CALL);
    bodies.trim(Math.max(0, TRIM_BYTES_PER_CALL - released));
    index.trim();
  }

  void close() {
    index.close();
    bodies.close();
    records.close();
  }

  long id(int j) { return records.page(j).getLong(records.offset(j) + ID); }
  long logBase(int j) { return getLong(j, LOG_BASE); }
  void setLogBase(int j, long v) { putLong(j, LOG_BASE, v); }
  long createdNanos(int j) { return getLong(j, CREATED_NANOS); }
  long deadlineNanos(int j) { return getLong(j, DEADLINE_NANOS); }
  void setDeadlineNanos(int j, long v) { putLong(j, DEADLINE_NANOS, v); }
  private long bodyRef(int j) { return getLong(j, BODY_REF); }
  int bodyLength(int j) { return getInt(j, BODY_LENGTH); }
  int priority(int j) { return getInt(j, PRIORITY); }
  void setPriority(int j, int v) { putInt(j, PRIORITY, v); }
  int delaySeconds(int j) { return getInt(j, DELAY_SECONDS); }
  void setDelaySeconds(int j, int v) { putInt(j, DELAY_SECONDS, v); }
  int ttrSeconds(int j) { return getInt(j, TTR_SECONDS); }
  int tube(int j) { return getInt(j, TUBE); }
  /** The job moves to the tube of that index (a dead letter); its tube's structures are the caller's. */
  void setTube(int j, int tube) { putInt(j, TUBE, tube); }
  int reservedBy(int j) { return getInt(j, RESERVED_BY); }
  void setReservedBy(int j, int v) { putInt(j, RESERVED_BY, v); }
  int tubeHeapPosition(int j) { return getInt(j, TUBE_HEAP_POSITION); }
  void setTubeHeapPosition(int j, int v) { putInt(j, TUBE_HEAP_POSITION, v); }
  int deadlineHeapPosition(int j) { return getInt(j, DEADLINE_HEAP_POSITION); }
  void setDeadlineHeapPosition(int j, int v) { putInt(j, DEADLINE_HEAP_POSITION, v); }
  int previous(int j) { return getInt(j, PREVIOUS); }
  void setPrevious(int j, int v) { putInt(j, PREVIOUS, v); }
  int next(int j) { return getInt(j, NEXT); }
  void setNext(int j, int v) { putInt(j, NEXT, v); }
  int reserves(int j) { return getInt(j, RESERVES); }
  int timeouts(int j) { return getInt(j, TIMEOUTS); }
  int releases(int j) { return getInt(j, RELEASES); }
  int buries(int j) { return getInt(j, BURIES); }
  int kicks(int j) { return getInt(j, KICKS); }
  void countReserve(int j) { putInt(j, RESERVES, reserves(j) + 1); }
  void countTimeout(int j) { putInt(j, TIMEOUTS, timeouts(j) + 1); }
  void countRelease(int j) { putInt(j, RELEASES, releases(j) + 1); }
  void countBury(int j) { putInt(j, BURIES, buries(j) + 1); }
  void countKick(int j) { putInt(j, KICKS, kicks(j) + 1); }

  /** Sets the counters a restored job had. */
  void setCounters(int j, int reserves, int timeouts, int releases, int buries, int kicks) {
    putInt(j, RESERVES, reserves);
    putInt(j, TIMEOUTS, timeouts);
    putInt(j, RELEASES, releases);
    putInt(j, BURIES, buries);
    putInt(j, KICKS, kicks);
  }

  JobState state(int j) {
    return STATES[records.page(j).get(records.offset(j) + STATE)];
  }

  void setState(int j, JobState state) {
    records.page(j).put(records.offset(j) + STATE, (byte) state.ordinal());
  }

  long ttrNanos(int j) {
    return Integer.toUnsignedLong(ttrSeconds(j)) * Clock.SECOND_NANOS;
  }

  long delayNanos(int j) {
    return Integer.toUnsignedLong(delaySeconds(j)) * Clock.SECOND_NANOS;
  }

  /** protocol.txt: priorities below 1024 are urgent. */
  boolean isUrgent(int j) {
    return Integer.compareUnsigned(priority(j), 1024) < 0;
  }

  /** The reserve order: smaller priority first, then the older job. */
  boolean isBefore(int a, int b) {
    int byPriority = Integer.compareUnsigned(priority(a), priority(b));
    return byPriority < 0 || (byPriority == 0 && id(a) < id(b));
  }

  /** The timer order: sooner deadline first, then the older job. */
  boolean isDueBefore(int a, int b) {
    long da = deadlineNanos(a);
    long db = deadlineNanos(b);
    return da < db || (da == db && id(a) < id(b));
  }

  private long getLong(int j, int field) {
    return records.page(j).getLong(records.offset(j) + field);
  }

  private void putLong(int j, int field, long v) {
    records.page(j).putLong(records.offset(j) + field, v);
  }

  private int getInt(int j, int field) {
    return records.page(j).getInt(records.offset(j) + field);
  }

  private void putInt(int j, int field, int v) {
    records.page(j).putInt(records.offset(j) + field, v);
  }
}
