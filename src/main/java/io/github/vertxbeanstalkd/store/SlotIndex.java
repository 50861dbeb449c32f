package io.github.vertxbeanstalkd.store;

import java.nio.ByteBuffer;

/**
 * Every live job id to its slot: an open-addressing table (linear probing) of int slots off the
 * heap, four bytes a bucket. The key is not stored: the slot's record holds the id, read through
 * {@link Ids}. The table grows and shrinks incrementally, a few buckets moved per call, so no single
 * call rehashes a million entries. Nor does any call zero tens of megabytes for a doubled table:
 * its memory comes in blocks, taken one every {@link #PUTS_PER_PREPARED_BLOCK} puts once the table
 * is five eighths full, so the doubled table is whole when the resize starts at three quarters
 * (and held no earlier than needed for that). One thread only.
 */
public final class SlotIndex {
  /** Where the index reads a slot's id. */
  @FunctionalInterface
  public interface Ids {
    long idOf(int slot);
  }

  public static final int NONE = -1;
  private static final int MIN_BUCKETS = 1024;
  /** Buckets moved from the old table per change while a resize runs. */
  private static final int MOVES_PER_CHANGE = 8;
  static final int TRIM_MOVES_PER_CALL = 4096;
  private static final int TRIM_BUCKETS_PER_CALL = 1 << 20;
  /** Once the table is five eighths full, a put takes one more block of the doubled table this often. */
  static final int PUTS_PER_PREPARED_BLOCK = 2048;
  private static final int EMPTY = 0;
  /** A bucket of the old table whose entry moved or was removed; lookups probe past it. */
  private static final int MOVED = -1;

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
    int mask = buckets - 1;
    for (int i = home(id, mask); ; i = (i + 1) & mask) {
      int v = table.get(i);
      if (v == EMPTY) {
        break;
      }
      if (ids.idOf(v - 1) == id) {
        return v - 1;
      }
    }
    int at = findOld(id);
    return at < 0 ? NONE : old.get(at) - 1;
  }

  /** Adds an id that is not in the index. */
  public void put(long id, int slot) {
    if (old == null && (size + 1) * 4L > buckets * 3L) {
      startResize(buckets * 2);
    } else if (old == null && size * 8L > buckets * 5L && size % PUTS_PER_PREPARED_BLOCK == 0) {
      prepareNext();
    }
    insert(table, buckets, id, slot + 1);
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
   * otherwise), through as many halvings as its budget allows; about once a second. Each entry
   * moved reads its job's record to rehash the id, a cache miss at millions of jobs, so a call
   * moves at most {@link #TRIM_MOVES_PER_CALL} entries (about a millisecond on the event loop):
   * finishing a resize in one call, up to a million buckets, held it for hundreds of milliseconds
   * (0.1-0.7 s stalls of a deep server while it grew). Empty buckets cost little: a call passes
   * up to {@link #TRIM_BUCKETS_PER_CALL} of them.
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
      int v = t.get(i);
      if (v != EMPTY && v != MOVED) {
        into[n++] = v - 1;
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
    int mask = buckets - 1;
    int i = home(id, mask);
    for (int v = table.get(i); ; i = (i + 1) & mask, v = table.get(i)) {
      if (v == EMPTY) {
        return false;
      }
      if (ids.idOf(v - 1) == id) {
        break;
      }
    }
    table.set(i, EMPTY);
    // Backward-shift deletion keeps every probe chain unbroken without tombstones.
    for (int j = (i + 1) & mask; ; j = (j + 1) & mask) {
      int v = table.get(j);
      if (v == EMPTY) {
        return true;
      }
      int h = home(ids.idOf(v - 1), mask);
      boolean isMovable = i <= j ? (h <= i || h > j) : (h <= i && h > j);
      if (isMovable) {
        table.set(i, v);
        table.set(j, EMPTY);
        i = j;
      }
    }
  }

  private boolean removeFromOld(long id) {
    int at = findOld(id);
    if (at < 0) {
      return false;
    }
    old.set(at, MOVED);
    return true;
  }

  private int findOld(long id) {
    if (old == null) {
      return -1;
    }
    int mask = oldBuckets - 1;
    for (int i = home(id, mask); ; i = (i + 1) & mask) {
      int v = old.get(i);
      if (v == EMPTY) {
        return -1;
      }
      if (v != MOVED && ids.idOf(v - 1) == id) {
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
    int v = old.get(moved);
    boolean isEntry = v != EMPTY && v != MOVED;
    if (isEntry) {
      insert(table, buckets, ids.idOf(v - 1), v);
      old.set(moved, MOVED);
    }
    if (++moved == oldBuckets) {
      old.free();
      old = null;
    }
    return isEntry;
  }

  private static void insert(Buckets t, int n, long id, int value) {
    int mask = n - 1;
    int i = home(id, mask);
    while (t.get(i) != EMPTY) {
      i = (i + 1) & mask;
    }
    t.set(i, value);
  }

  private static int home(long id, int mask) {
    return (int) ((id * 0x9E3779B97F4A7C15L) >>> 32) & mask;
  }

  /**
   * A table of int buckets in blocks of {@link #BLOCK_BUCKETS}, each taken ahead of time or when one
   * of its buckets is first written (a bucket of a block not taken reads as empty), and given back
   * when the table goes. A table smaller than a block is one block of its own size.
   */
  private static final class Buckets {
    private static final int BLOCK_BUCKETS_LOG2 = 16;
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
      return 4L * blockBuckets * blocksTaken;
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

    int get(int i) {
      ByteBuffer block = blocks[i >>> BLOCK_BUCKETS_LOG2];
      return block == null ? EMPTY : block.getInt((i & BLOCK_MASK) << 2);
    }

    void set(int i, int value) {
      ByteBuffer block = blocks[i >>> BLOCK_BUCKETS_LOG2];
      if (block == null) {
        block = take(i >>> BLOCK_BUCKETS_LOG2);
      }
      block.putInt((i & BLOCK_MASK) << 2, value);
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
      blocks[b] = memory.allocateOverLimit(4 * blockBuckets);
      blocksTaken++;
      return blocks[b];
    }
  }
}
