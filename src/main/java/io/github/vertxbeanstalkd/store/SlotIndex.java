package io.github.vertxbeanstalkd.store;

import java.nio.ByteBuffer;

/**
 * Every live job id to its slot: an open-addressing table (linear probing) off the heap, eight
 * bytes a bucket: the id's low 32 bits (its tag) and the slot. The tag settles a probe without
 * reading the job's record (a record is read once, to confirm a match: ids 2^32 apart share a tag)
 * and gives the home of an entry being moved, so resizes and deletions' backward shifts read no
 * record at all. With four-byte buckets of slots alone, every entry a doubling moved was a read of
 * its record, a cache miss at millions of jobs: a put cost 3-3.6 us instead of 0.13-0.35 while a
 * table of 8M buckets moved (a million puts), about a fifth of what a put costs the whole server.
 * The table grows and shrinks incrementally, a few buckets moved per call, so no single call
 * rehashes a million entries. Nor does any call zero tens of megabytes for a doubled table: its
 * memory comes in blocks, taken one every {@link #PUTS_PER_PREPARED_BLOCK} puts once the table is
 * five eighths full, so the doubled table is whole when the resize starts at three quarters (and
 * held no earlier than needed for that). One thread only.
 */
public final class SlotIndex {
  /** Where the index reads a slot's id. */
  @FunctionalInterface
  public interface Ids {
    long idOf(int slot);
  }

  public static final int NONE = -1;
  static final int BYTES_PER_BUCKET = 8;
  private static final int MIN_BUCKETS = 1024;
  /** Buckets moved from the old table per change while a resize runs. */
  private static final int MOVES_PER_CHANGE = 8;
  static final int TRIM_MOVES_PER_CALL = 4096;
  private static final int TRIM_BUCKETS_PER_CALL = 1 << 20;
  /**
   * Once the table is five eighths full, a put takes one more block of the doubled table this
   * often: the doubled table's blocks are all taken after a sixteenth of the buckets' puts, half the
   * eighth there is before the resize starts.
   */
  static final int PUTS_PER_PREPARED_BLOCK = 1024;
  private static final long EMPTY = 0;
  /**
   * A bucket of the old table whose entry moved or was removed; lookups probe past it. Its slot
   * part is all ones, which no entry's is (slots are below 2^31).
   */
  private static final long MOVED = 0xFFFF_FFFFL;

  private final DirectMemory memory;
  private final Ids ids;
  private Buckets table;
  private int buckets;
  private Buckets old;
  private int oldBuckets;
  /** The doubled table, being taken block by block before the resize needs it; or null. */
  private Buckets next;
  private int moved;
  private int size;

  public SlotIndex(DirectMemory memory, Ids ids) {
    this.memory = memory;
    this.ids = ids;
    this.buckets = MIN_BUCKETS;
    this.table = new Buckets(memory, buckets);
  }

  public int size() {
    return size;
  }

  /** Off-heap bytes of the tables now. */
  public long reservedBytes() {
    return table.reservedBytes() + (old == null ? 0 : old.reservedBytes())
        + (next == null ? 0 : next.reservedBytes());
  }

  /** The slot of {@code id}, or {@link #NONE}. */
  public int get(long id) {
    int at = find(table, buckets, id);
    if (at >= 0) {
      return slotOf(table.get(at));
    }
    at = old == null ? -1 : find(old, oldBuckets, id);
    return at < 0 ? NONE : slotOf(old.get(at));
  }

  /** Adds an id that is not in the index. */
  public void put(long id, int slot) {
    if (old == null && (size + 1) * 4L > buckets * 3L) {
      startResize(buckets * 2);
    } else if (old == null && size * 8L > buckets * 5L && size % PUTS_PER_PREPARED_BLOCK == 0) {
      prepareNext();
    }
    insert(table, buckets, entry(id, slot));
    size++;
    moveSome(MOVES_PER_CHANGE);
  }

  /** Removes the id; false when it was not there. */
  public boolean remove(long id) {
    boolean removed = removeFromTable(id) || removeFromOld(id);
    if (removed) {
      size--;
      if (old == null && buckets > MIN_BUCKETS && size * 8L < buckets) {
        startResize(buckets / 2);
      }
      if (next != null && size * 2L < buckets) {
        // Back under half full: the doubled table is far off again.
        next.free();
        next = null;
      }
      moveSome(MOVES_PER_CHANGE);
    }
    return removed;
  }

  /**
   * Moves on with shrinking a table that emptied while few changes came (they drive the resize
   * otherwise), through as many halvings as its budget allows; about once a second. A call moves
   * at most {@link #TRIM_MOVES_PER_CALL} entries: finishing a resize in one call, up to a million
   * buckets, held the event loop for hundreds of milliseconds when each move read its job's record
   * (0.1-0.7 s stalls of a deep server while it grew). Empty buckets cost little: a call passes up
   * to {@link #TRIM_BUCKETS_PER_CALL} of them.
   */
  public void trim() {
    int moves = TRIM_MOVES_PER_CALL;
    for (int scans = TRIM_BUCKETS_PER_CALL; scans > 0 && moves > 0; scans--) {
      if (old == null) {
        if (buckets > MIN_BUCKETS && size * 8L < buckets) {
          startResize(buckets / 2);
        } else {
          return;
        }
      }
      if (moveOne()) {
        moves--;
      }
    }
  }

  /** Every slot in the index, in no order: one pass over both tables while a resize runs. */
  public int[] slots() {
    int[] slots = new int[size];
    int n = collect(table, buckets, slots, 0);
    if (old != null) {
      n = collect(old, oldBuckets, slots, n);
    }
    return n == slots.length ? slots : java.util.Arrays.copyOf(slots, n);
  }

  private static int collect(Buckets t, int count, int[] into, int n) {
    for (int i = 0; i < count && n < into.length; i++) {
      long v = t.get(i);
      if (v != EMPTY && v != MOVED) {
        into[n++] = slotOf(v);
      }
    }
    return n;
  }

  public void close() {
    table.free();
    table = null;
    if (next != null) {
      next.free();
      next = null;
    }
    if (old != null) {
      old.free();
      old = null;
    }
  }

  private boolean removeFromTable(long id) {
    int i = find(table, buckets, id);
    if (i < 0) {
      return false;
    }
    int mask = buckets - 1;
    table.set(i, EMPTY);
    // Backward-shift deletion keeps every probe chain unbroken without tombstones.
    for (int j = (i + 1) & mask; ; j = (j + 1) & mask) {
      long v = table.get(j);
      if (v == EMPTY) {
        return true;
      }
      int h = home(tagOf(v), mask);
      boolean isMovable = i <= j ? (h <= i || h > j) : (h <= i && h > j);
      if (isMovable) {
        table.set(i, v);
        table.set(j, EMPTY);
        i = j;
      }
    }
  }

  private boolean removeFromOld(long id) {
    int at = old == null ? -1 : find(old, oldBuckets, id);
    if (at < 0) {
      return false;
    }
    old.set(at, MOVED);
    return true;
  }

  /** The bucket of {@code id} in table {@code t} of {@code count} buckets, or -1. */
  private int find(Buckets t, int count, long id) {
    int mask = count - 1;
    int tag = (int) id;
    for (int i = home(tag, mask); ; i = (i + 1) & mask) {
      long v = t.get(i);
      if (v == EMPTY) {
        return -1;
      }
      if (v != MOVED && tagOf(v) == tag && ids.idOf(slotOf(v)) == id) {
        return i;
      }
    }
  }

  private void prepareNext() {
    if (next == null) {
      next = new Buckets(memory, buckets * 2);
    }
    next.takeOneMore();
  }

  private void startResize(int newBuckets) {
    Buckets resized;
    if (next != null && next.count() == newBuckets) {
      resized = next;
    } else {
      resized = new Buckets(memory, newBuckets);
      if (next != null) {
        next.free();
      }
    }
    next = null;
    old = table;
    oldBuckets = buckets;
    moved = 0;
    buckets = newBuckets;
    table = resized;
  }

  private void moveSome(int bucketCount) {
    for (int i = 0; i < bucketCount && old != null; i++) {
      moveOne();
    }
  }

  /** Moves the old table's next bucket to the new one; true when it held an entry. */
  private boolean moveOne() {
    long v = old.get(moved);
    boolean isEntry = v != EMPTY && v != MOVED;
    if (isEntry) {
      insert(table, buckets, v);
      old.set(moved, MOVED);
    }
    if (++moved == oldBuckets) {
      old.free();
      old = null;
    }
    return isEntry;
  }

  private static void insert(Buckets t, int n, long entry) {
    int mask = n - 1;
    int i = home(tagOf(entry), mask);
    while (t.get(i) != EMPTY) {
      i = (i + 1) & mask;
    }
    t.set(i, entry);
  }

  private static long entry(long id, int slot) {
    return ((long) (int) id << 32) | ((slot + 1) & 0xFFFF_FFFFL);
  }

  private static int tagOf(long entry) {
    return (int) (entry >>> 32);
  }

  private static int slotOf(long entry) {
    return (int) entry - 1;
  }

  /** The bucket an id's probe starts at: its tag through a Fibonacci hash, so that ids in sequence spread. */
  static int home(int tag, int mask) {
    return (int) (((tag & 0xFFFF_FFFFL) * 0x9E3779B97F4A7C15L) >>> 32) & mask;
  }

  /**
   * A table of long buckets in blocks of {@link #BLOCK_BUCKETS}, each taken ahead of time or when one
   * of its buckets is first written (a bucket of a block not taken reads as empty), and given back
   * when the table goes. A table smaller than a block is one block of its own size.
   */
  private static final class Buckets {
    /** 32,768 buckets, 256 KiB a block. */
    private static final int BLOCK_BUCKETS_LOG2 = 15;
    static final int BLOCK_BUCKETS = 1 << BLOCK_BUCKETS_LOG2;
    private static final int BLOCK_MASK = BLOCK_BUCKETS - 1;
    private final DirectMemory memory;
    private final ByteBuffer[] blocks;
    private final int blockBuckets;
    private int blocksTaken;

    Buckets(DirectMemory memory, int count) {
      this.memory = memory;
      this.blockBuckets = Math.min(count, BLOCK_BUCKETS);
      this.blocks = new ByteBuffer[count / blockBuckets];
      if (blocks.length == 1) {
        take(0);
      }
    }

    long reservedBytes() {
      return (long) BYTES_PER_BUCKET * blockBuckets * blocksTaken;
    }

    int count() {
      return blockBuckets * blocks.length;
    }

    /** Takes the lowest block not yet taken, if any. */
    void takeOneMore() {
      if (blocksTaken < blocks.length) {
        int b = 0;
        while (blocks[b] != null) {
          b++;
        }
        take(b);
      }
    }

    long get(int i) {
      ByteBuffer block = blocks[i >>> BLOCK_BUCKETS_LOG2];
      return block == null ? EMPTY : block.getLong((i & BLOCK_MASK) << 3);
    }

    void set(int i, long value) {
      ByteBuffer block = blocks[i >>> BLOCK_BUCKETS_LOG2];
      if (block == null) {
        block = take(i >>> BLOCK_BUCKETS_LOG2);
      }
      block.putLong((i & BLOCK_MASK) << 3, value);
    }

    void free() {
      for (int b = 0; b < blocks.length; b++) {
        if (blocks[b] != null) {
          memory.free(blocks[b]);
          blocks[b] = null;
        }
      }
      blocksTaken = 0;
    }

    private ByteBuffer take(int b) {
      blocks[b] = memory.allocateOverLimit(BYTES_PER_BUCKET * blockBuckets);
      blocksTaken++;
      return blocks[b];
    }
  }
}
