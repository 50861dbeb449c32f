package io.github.vertxbeanstalkd.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What the meter adds to HdrHistogram: the window, percentiles in nanoseconds, and its precision. */
class MeterTest {
  private static final long MILLI = 1_000_000;

  @Test
  void percentilesAreNanosecondsWithinATenthOfAPercent() {
    Meter meter = new Meter();
    meter.open(0, Long.MAX_VALUE);
    for (long micros = 1; micros <= 100_000; micros++) {
      meter.record(1, micros * 1000);
    }

    assertWithinTenthOfAPercent(50_000_000L, meter.latencyNanosAt(50));
    assertWithinTenthOfAPercent(99_000_000L, meter.latencyNanosAt(99));
    assertWithinTenthOfAPercent(99_900_000L, meter.latencyNanosAt(99.9));
    assertWithinTenthOfAPercent(100_000_000L, meter.maxLatencyNanos());
  }

  @Test
  void smallLatenciesAreExact() {
    Meter meter = new Meter();
    meter.open(0, Long.MAX_VALUE);
    for (long nanos = 1; nanos <= 31; nanos++) {
      meter.record(1, nanos);
    }

    assertEquals(16, meter.latencyNanosAt(50));
    assertEquals(31, meter.latencyNanosAt(100));
    assertEquals(31, meter.maxLatencyNanos());
  }

  @Test
  void latenciesOfSecondsFit() {
    Meter meter = new Meter();
    meter.open(0, Long.MAX_VALUE);
    meter.record(1, 50_000);
    meter.record(1, 30_000 * MILLI);

    assertWithinTenthOfAPercent(30_000 * MILLI, meter.maxLatencyNanos());
  }

  @Test
  void emptyMeterReportsZero() {
    Meter meter = new Meter();

    assertEquals(0, meter.latencyNanosAt(99));
    assertEquals(0, meter.maxLatencyNanos());
    assertEquals(0, meter.ops());
  }

  @Test
  void onlyTheWindowIsMeasured() {
    Meter meter = new Meter();
    meter.open(10 * MILLI, 20 * MILLI);

    meter.record(5 * MILLI, 7 * MILLI);
    meter.record(15 * MILLI, 3 * MILLI);
    meter.record(20 * MILLI, 9 * MILLI);

    assertEquals(1, meter.ops());
    assertWithinTenthOfAPercent(3 * MILLI, meter.maxLatencyNanos());
  }

  @Test
  void sampleAddsALatencyAndCountAddsAnOperation() {
    Meter meter = new Meter();
    meter.open(0, Long.MAX_VALUE);

    meter.sample(1, 2 * MILLI);
    meter.count(1);
    meter.count(2);

    assertEquals(2, meter.ops());
    assertWithinTenthOfAPercent(2 * MILLI, meter.latencyNanosAt(50));
  }

  @Test
  void negativeLatencyCountsAsZeroInsteadOfFailingTheCase() {
    Meter meter = new Meter();
    meter.open(0, Long.MAX_VALUE);

    meter.record(1, -5);

    assertEquals(1, meter.ops());
    assertEquals(0, meter.maxLatencyNanos());
  }

  private static void assertWithinTenthOfAPercent(long expected, long actual) {
    assertTrue(Math.abs(actual - expected) <= expected / 1000, expected + " vs " + actual);
  }
}
