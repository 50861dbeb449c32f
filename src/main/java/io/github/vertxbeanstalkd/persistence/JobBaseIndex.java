package io.github.vertxbeanstalkd.persistence;

import io.github.vertxbeanstalkd.store.DirectMemory;
import io.github.vertxbeanstalkd.store.LongArray;

/**
 * For each live job id, the segment holding its snapshot and the snapshot's size, packed in one
 * long. Open addressing with linear probing, 22 to 43 bytes a job (load between 3/8 and 3/4), off
 * the GC heap ({@link LongArray}), because a server may hold millions of jobs and the heap's size
 * must not decide how many a restart can bring back. Job ids are positive, so 0 marks a free slot.
 * Engine thread only; {@link #close()} frees the memory.
 */
final class JobBaseIndex implements JobBases {
  private static final int MIN_CAPACITY = 16;
  private final DirectMemory memory;
  /** Slot i's key at 2i, its value at 2i + 1; null until the first put (a log in memory has none). */
  private LongArray slots;
  private long capacity = MIN_CAPACITY;
  private int size;

  JobBaseIndex(DirectMemory memory) {
    this.memory = memory;
  }

  /** A base: the segment's index in the high 32 bits, the snapshot's frame bytes in the low. */
  public static long pack(long segmentIndex, int frameBytes) {
    return (segmentIndex << 32) | Integer.toUnsignedLong(frameBytes);
  }

  static long segmentOf(long packed) {
    return packed >>> 32;
  }

  static int frameBytesOf(long packed) {
    return (int) packed;
  }

  int size() {
    return size;
  }

  @Override
  public long get(long id) {
    if (slots == null) {
      return ABSENT;
    }
    long mask = capacity - 1;
    for (long i = slot(id, mask); key(i) != 0; i = (i + 1) & mask) {
      if (key(i) == id) {
        return value(i);
      }
    }
    return ABSENT;
  }

  /** Stores {@code value} for {@code id}; returns the previous value or {@link #ABSENT}. */
  @Override
  public long put(long id, long value) {
    if (id <= 0) {
      throw new IllegalArgumentException("job ids are positive: " + id);
    }
    if (slots == null) {
      slots = new LongArray(memory, 2 * capacity);
    }
    if ((size + 1) * 4L > capacity * 3L) {
      grow();
    }
    long mask = capacity - 1;
    long i = slot(id, mask);
    for (; key(i) != 0; i = (i + 1) & mask) {
      if (key(i) == id) {
        long old = value(i);
        slots.set(2 * i + 1, value);
        return old;
      }
    }
    slots.set(2 * i, id);
    slots.set(2 * i + 1, value);
    size++;
    return ABSENT;
  }

  /** Removes {@code id}; returns its value or {@link #ABSENT}. */
  @Override
  public long remove(long id) {
    if (slots == null) {
      return ABSENT;
    }
    long mask = capacity - 1;
    long i = slot(id, mask);
    while (key(i) != id) {
      if (key(i) == 0) {
        return ABSENT;
      }
      i = (i + 1) & mask;
    }
    long old = value(i);
    size--;
    // Backward-shift deletion keeps every probe chain unbroken without tombstones.
    for (long gap = i, j = (i + 1) & mask; ; j = (j + 1) & mask) {
      long k = key(j);
      if (k == 0) {
        slots.set(2 * gap, 0);
        return old;
      }
      long home = slot(k, mask);
      if (((j - home) & mask) >= ((j - gap) & mask)) {
        slots.set(2 * gap, k);
        slots.set(2 * gap + 1, value(j));
        gap = j;
      }
    }
  }

  /** Frees the memory; the index must not be used again. */
  @Override
  public void close() {
    if (slots != null) {
      slots.close();
      slots = null;
    }
  }

  private long key(long i) {
    return slots.get(2 * i);
  }

  private long value(long i) {
    return slots.get(2 * i + 1);
  }

  private void grow() {
    LongArray old = slots;
    long oldCapacity = capacity;
    slots = new LongArray(memory, 4 * oldCapacity);
    capacity = 2 * oldCapacity;
    size = 0;
    for (long i = 0; i < oldCapacity; i++) {
      long k = old.get(2 * i);
      if (k != 0) {
        put(k, old.get(2 * i + 1));
      }
    }
    old.close();
  }

  /**
   * Fibonacci hashing: the product's high bits, which depend on every bit of the id. A server's ids
   * are consecutive, and the low bits of the product (or of the id) would cluster them: with
   * {@code (h ^ h >>> 32) & mask}, 1.5M consecutive ids in 2M slots took 2.25 probes on average
   * and 263 at worst, against 0.05 and 2 this way.
   */
  private static long slot(long id, long mask) {
    return (id * 0x9E3779B97F4A7C15L) >>> (64 - Long.bitCount(mask));
  }
}
