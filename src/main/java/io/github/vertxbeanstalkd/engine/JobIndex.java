package io.github.vertxbeanstalkd.engine;

/**
 * Every live job by id: an open-addressing hash table on primitive longs, about 12 bytes a job
 * instead of the ~60 of a {@code HashMap<Long, Job>}.
 */
final class JobIndex {
  private long[] keys = new long[1024];
  private Job[] values = new Job[1024];
  private int size;

  int size() {
    return size;
  }

  Job get(long id) {
    int mask = keys.length - 1;
    for (int i = slot(id, mask); ; i = (i + 1) & mask) {
      Job v = values[i];
      if (v == null) {
        return null;
      }
      if (keys[i] == id) {
        return v;
      }
    }
  }

  void put(Job job) {
    if ((size + 1) * 4L > keys.length * 3L) {
      resize(keys.length * 2);
    }
    insert(job.id, job);
    size++;
  }

  void remove(long id) {
    int mask = keys.length - 1;
    int i = slot(id, mask);
    while (values[i] != null && keys[i] != id) {
      i = (i + 1) & mask;
    }
    if (values[i] == null) {
      return;
    }
    values[i] = null;
    size--;
    // Backward-shift deletion keeps every probe chain unbroken without tombstones.
    for (int j = (i + 1) & mask; values[j] != null; j = (j + 1) & mask) {
      int home = slot(keys[j], mask);
      boolean movable = i <= j ? (home <= i || home > j) : (home <= i && home > j);
      if (movable) {
        keys[i] = keys[j];
        values[i] = values[j];
        values[j] = null;
        i = j;
      }
    }
    if (keys.length > 1024 && size * 8L < keys.length) {
      resize(keys.length / 2);
    }
  }

  private void insert(long id, Job job) {
    int mask = keys.length - 1;
    int i = slot(id, mask);
    while (values[i] != null) {
      i = (i + 1) & mask;
    }
    keys[i] = id;
    values[i] = job;
  }

  private void resize(int capacity) {
    long[] oldKeys = keys;
    Job[] oldValues = values;
    keys = new long[capacity];
    values = new Job[capacity];
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldValues[i] != null) {
        insert(oldKeys[i], oldValues[i]);
      }
    }
  }

  private static int slot(long id, int mask) {
    long h = id * 0x9E3779B97F4A7C15L;
    return (int) (h >>> 32) & mask;
  }
}
