package io.github.vertxbeanstalkd.persistence;

/**
 * For each live job id, the segment holding its snapshot and the snapshot's size, packed in one
 * long. Open addressing with linear probing over primitive arrays, 22 to 43 bytes a job (load
 * between 3/8 and 3/4) and no boxing, because a server may hold millions of jobs. Job ids are
 * positive, so 0 marks a free slot. Engine thread only.
 */
final class JobBaseIndex {
  static final long ABSENT = -1;
  private long[] keys = new long[16];
  private long[] values = new long[16];
  private int size;

  static long pack(long segmentIndex, int frameBytes) {
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

  long get(long id) {
    int mask = keys.length - 1;
    for (int i = slot(id, mask); keys[i] != 0; i = (i + 1) & mask) {
      if (keys[i] == id) {
        return values[i];
      }
    }
    return ABSENT;
  }

  /** Stores {@code value} for {@code id}; returns the previous value or {@link #ABSENT}. */
  long put(long id, long value) {
    if (id <= 0) {
      throw new IllegalArgumentException("job ids are positive: " + id);
    }
    if ((size + 1) * 4L > keys.length * 3L) {
      grow();
    }
    int mask = keys.length - 1;
    int i = slot(id, mask);
    for (; keys[i] != 0; i = (i + 1) & mask) {
      if (keys[i] == id) {
        long old = values[i];
        values[i] = value;
        return old;
      }
    }
    keys[i] = id;
    values[i] = value;
    size++;
    return ABSENT;
  }

  /** Removes {@code id}; returns its value or {@link #ABSENT}. */
  long remove(long id) {
    int mask = keys.length - 1;
    int i = slot(id, mask);
    while (keys[i] != id) {
      if (keys[i] == 0) {
        return ABSENT;
      }
      i = (i + 1) & mask;
    }
    long old = values[i];
    size--;
    // Backward-shift deletion keeps every probe chain unbroken without tombstones.
    for (int gap = i, j = (i + 1) & mask; ; j = (j + 1) & mask) {
      if (keys[j] == 0) {
        keys[gap] = 0;
        return old;
      }
      int home = slot(keys[j], mask);
      if (((j - home) & mask) >= ((j - gap) & mask)) {
        keys[gap] = keys[j];
        values[gap] = values[j];
        gap = j;
      }
    }
  }

  private void grow() {
    long[] oldKeys = keys;
    long[] oldValues = values;
    keys = new long[oldKeys.length * 2];
    values = new long[oldKeys.length * 2];
    size = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != 0) {
        put(oldKeys[i], oldValues[i]);
      }
    }
  }

  private static int slot(long id, int mask) {
    long h = id * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32)) & mask;
  }
}
