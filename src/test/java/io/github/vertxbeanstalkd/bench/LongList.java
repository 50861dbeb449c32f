package io.github.vertxbeanstalkd.bench;

import java.util.Arrays;

/** A growable list of job ids, so a case can delete exactly the jobs it put. */
final class LongList {
  private long[] values = new long[1024];
  private int size;

  void add(long value) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = value;
  }

  long get(int index) {
    return values[index];
  }

  int size() {
    return size;
  }
}
