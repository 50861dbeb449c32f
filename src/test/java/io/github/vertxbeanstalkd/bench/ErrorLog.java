package io.github.vertxbeanstalkd.bench;

import java.util.ArrayList;
import java.util.List;

/** Counts protocol errors (unexpected replies, stalls, lost connections), keeping a few samples. */
final class ErrorLog {
  private static final int MAX_SAMPLES = 5;

  private long count;
  private final List<String> samples = new ArrayList<>();

  boolean isSampling() {
    return samples.size() < MAX_SAMPLES;
  }

  /** Counts one error; {@code what} (may be null once sampling is over) is kept as a sample. */
  void add(String what) {
    count++;
    if (what != null && isSampling()) {
      samples.add(what);
    }
  }

  /** Counts an error that ends a phase; its reason is always kept. */
  void addFatal(String why) {
    count++;
    samples.add(why);
  }

  long count() {
    return count;
  }

  List<String> samples() {
    return List.copyOf(samples);
  }
}
