package io.github.vertxbeanstalkd.bench;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Operations and latencies inside a measuring window. A timed case opens a window that starts
 * after the warm-up and ends at the stop time; a counted case opens an endless one and its
 * duration is taken up to the last operation.
 */
final class Meter {
  /**
   * Three significant digits: any latency is known to within 0.1 %. The histogram grows to the
   * largest value recorded, so a case that stalls for seconds still fits. One thread records at a
   * time (the selector, or the bus context) and the result is read after the phase has ended, so
   * a plain Histogram does, not a Recorder.
   */
  private final Histogram latencyNanos = new Histogram(3);
  private long ops;
  private long fromNanos;
  private long untilNanos = Long.MAX_VALUE;
  private long lastNanos;
  /** When set (not MIN_VALUE), a timed window starts here rather than when the load starts. */
  private long anchorNanos = Long.MIN_VALUE;
  /** Per-slice operations and latencies of a sliced window, or null. */
  private long sliceNanos;
  private long[] sliceOps;
  private Histogram[] sliceLatencyNanos;

  /**
   * Makes the timed window start at {@code nowNanos} instead of when the load starts, so that
   * connecting and setting up connections count as part of it (a "first seconds" run: the window
   * starts the moment a new server's port opens).
   */
  void anchor(long nowNanos) {
    this.anchorNanos = nowNanos;
  }

  /** Also counts operations and latencies per {@code sliceMillis} of the window. */
  void slice(long sliceMillis, long durationMillis) {
    int count = (int) Math.max(1, (durationMillis + sliceMillis - 1) / sliceMillis);
    this.sliceNanos = TimeUnit.MILLISECONDS.toNanos(sliceMillis);
    this.sliceOps = new long[count];
    this.sliceLatencyNanos = new Histogram[count];
    for (int i = 0; i < count; i++) {
      sliceLatencyNanos[i] = new Histogram(3);
    }
  }

  /**
   * Opens the window {@code warmupMillis} from now for {@code durationMillis}, or an endless one
   * from now when {@code durationMillis} is negative (a counted case); returns when the load stops.
   */
  long openAfterWarmup(long nowNanos, long warmupMillis, long durationMillis) {
    if (durationMillis < 0) {
      open(nowNanos, Long.MAX_VALUE);
      return Long.MAX_VALUE;
    }
    long start = anchorNanos == Long.MIN_VALUE ? nowNanos : anchorNanos;
    long from = start + TimeUnit.MILLISECONDS.toNanos(warmupMillis);
    long until = from + TimeUnit.MILLISECONDS.toNanos(durationMillis);
    open(from, until);
    return until;
  }

  void open(long fromNanos, long untilNanos) {
    this.fromNanos = fromNanos;
    this.untilNanos = untilNanos;
    this.lastNanos = fromNanos;
  }

  boolean isMeasuring(long nowNanos) {
    return nowNanos >= fromNanos && nowNanos < untilNanos;
  }

  /** One operation at {@code nowNanos}, with its latency; ignored outside the window. */
  void record(long nowNanos, long latencyNanos) {
    if (isMeasuring(nowNanos)) {
      recordLatency(latencyNanos);
      ops++;
      lastNanos = nowNanos;
      if (sliceOps != null) {
        int slice = slice(nowNanos);
        sliceOps[slice]++;
        sliceLatencyNanos[slice].recordValue(Math.max(0, latencyNanos));
      }
    }
  }

  /** A latency without an operation of its own; ignored outside the window. */
  void sample(long nowNanos, long latencyNanos) {
    if (isMeasuring(nowNanos)) {
      recordLatency(latencyNanos);
      if (sliceOps != null) {
        sliceLatencyNanos[slice(nowNanos)].recordValue(Math.max(0, latencyNanos));
      }
    }
  }

  /** One operation without a latency of its own; ignored outside the window. */
  void count(long nowNanos) {
    if (isMeasuring(nowNanos)) {
      ops++;
      lastNanos = nowNanos;
      if (sliceOps != null) {
        sliceOps[slice(nowNanos)]++;
      }
    }
  }

  private int slice(long nowNanos) {
    return (int) Math.min(sliceOps.length - 1, (nowNanos - fromNanos) / sliceNanos);
  }

  /** Slices of a sliced window (0 when not sliced). */
  int sliceCount() {
    return sliceOps == null ? 0 : sliceOps.length;
  }

  long sliceOps(int slice) {
    return sliceOps[slice];
  }

  double sliceSeconds() {
    return sliceNanos / 1e9;
  }

  /** The latency at {@code percentile} over slices {@code from} to {@code to}, inclusive. */
  long sliceLatencyNanosAt(int from, int to, double percentile) {
    Histogram merged = new Histogram(3);
    for (int i = from; i <= to; i++) {
      merged.add(sliceLatencyNanos[i]);
    }
    return merged.getValueAtPercentile(percentile);
  }

  /** The largest latency over slices {@code from} to {@code to}, inclusive. */
  long sliceMaxLatencyNanos(int from, int to) {
    long max = 0;
    for (int i = from; i <= to; i++) {
      max = Math.max(max, sliceLatencyNanos[i].getMaxValue());
    }
    return max;
  }

  long ops() {
    return ops;
  }

  double seconds() {
    long end = untilNanos == Long.MAX_VALUE ? lastNanos : untilNanos;
    return Math.max(1, end - fromNanos) / 1e9;
  }

  double opsPerSecond() {
    return ops / seconds();
  }

  /** The latency at {@code percentile} (0 to 100) in nanoseconds; 0 when none was recorded. */
  long latencyNanosAt(double percentile) {
    return latencyNanos.getValueAtPercentile(percentile);
  }

  /** The largest latency recorded, in nanoseconds (to the histogram's precision); 0 when none. */
  long maxLatencyNanos() {
    return latencyNanos.getMaxValue();
  }

  private void recordLatency(long nanos) {
    // HdrHistogram throws on a negative value; a bad timestamp in a job body must not end the case.
    latencyNanos.recordValue(Math.max(0, nanos));
  }
}
