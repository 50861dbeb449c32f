package io.github.vertxbeanstalkd.bench;

/**
 * Latencies in nanoseconds, counted in fixed log-linear buckets (HdrHistogram's layout, small):
 * 32 linear sub-buckets per power of two, so any recorded value is known to within about 3 %.
 * Recording is one array increment; the whole histogram is 1,888 longs and never grows.
 */
public final class LatencyHistogram {
  private static final int SUB_BUCKET_BITS = 5;
  private static final int SUB_BUCKETS = 1 << SUB_BUCKET_BITS;
  /** Enough buckets for any non-negative long. */
  private static final int BUCKETS = (64 - SUB_BUCKET_BITS) * SUB_BUCKETS;

  private final long[] counts = new long[BUCKETS];
  private long total;
  private long maxNanos;
  private long sumNanos;

  public void record(long nanos) {
    long value = Math.max(0, nanos);
    counts[indexOf(value)]++;
    total++;
    sumNanos += value;
    if (value > maxNanos) {
      maxNanos = value;
    }
  }

  public long count() {
    return total;
  }

  public long maxNanos() {
    return maxNanos;
  }

  public double meanNanos() {
    return total == 0 ? 0 : (double) sumNanos / total;
  }

  /**
   * The value at quantile q (0..1): the middle of the bucket holding the ceil(q * count)-th
   * smallest value, never above the largest value recorded; 0 when empty.
   */
  public long valueAtQuantileNanos(double q) {
    if (total == 0) {
      return 0;
    }
    long rank = Math.max(1, (long) Math.ceil(q * total));
    long seen = 0;
    for (int i = 0; i < BUCKETS; i++) {
      seen += counts[i];
      if (seen >= rank) {
        return Math.min(maxNanos, lowestValueOf(i) + (widthOf(i) - 1) / 2);
      }
    }
    return maxNanos;
  }

  public void add(LatencyHistogram other) {
    for (int i = 0; i < BUCKETS; i++) {
      counts[i] += other.counts[i];
    }
    total += other.total;
    sumNanos += other.sumNanos;
    maxNanos = Math.max(maxNanos, other.maxNanos);
  }

  static int indexOf(long value) {
    if (value < SUB_BUCKETS) {
      return (int) value;
    }
    int highestBit = 63 - Long.numberOfLeadingZeros(value);
    int shift = highestBit - SUB_BUCKET_BITS;
    int sub = (int) (value >>> shift) & (SUB_BUCKETS - 1);
    return (shift + 1) * SUB_BUCKETS + sub;
  }

  static long lowestValueOf(int index) {
    int bucket = index >>> SUB_BUCKET_BITS;
    long sub = index & (SUB_BUCKETS - 1);
    return bucket == 0 ? sub : (SUB_BUCKETS + sub) << (bucket - 1);
  }

  static long widthOf(int index) {
    int bucket = index >>> SUB_BUCKET_BITS;
    return bucket == 0 ? 1 : 1L << (bucket - 1);
  }
}
