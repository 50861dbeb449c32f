package io.github.vertxbeanstalkd.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LatencyHistogramTest {
  @Test
  void smallValuesAreExact() {
    LatencyHistogram histogram = new LatencyHistogram();
    for (long v = 1; v <= 31; v++) {
      histogram.record(v);
    }
    assertEquals(16, histogram.valueAtQuantileNanos(0.5));
    assertEquals(31, histogram.valueAtQuantileNanos(1.0));
  }

  @Test
  void quantilesAreWithinThreePercent() {
    LatencyHistogram histogram = new LatencyHistogram();
    for (long v = 1; v <= 1_000_000; v++) {
      histogram.record(v * 1000);
    }
    assertWithin(500_000_000L, histogram.valueAtQuantileNanos(0.5));
    assertWithin(990_000_000L, histogram.valueAtQuantileNanos(0.99));
    assertWithin(999_000_000L, histogram.valueAtQuantileNanos(0.999));
    assertEquals(1_000_000_000L, histogram.maxNanos());
  }

  @Test
  void bucketsCoverEveryLongWithoutGaps() {
    for (int i = 1; i < LatencyHistogram.indexOf(Long.MAX_VALUE); i++) {
      assertEquals(LatencyHistogram.lowestValueOf(i - 1) + LatencyHistogram.widthOf(i - 1),
          LatencyHistogram.lowestValueOf(i), "bucket " + i);
      assertEquals(i, LatencyHistogram.indexOf(LatencyHistogram.lowestValueOf(i)));
    }
  }

  @Test
  void emptyHistogramReportsZero() {
    assertEquals(0, new LatencyHistogram().valueAtQuantileNanos(0.99));
  }

  private static void assertWithin(long expected, long actual) {
    assertTrue(Math.abs(actual - expected) <= expected * 0.03, expected + " vs " + actual);
  }
}
