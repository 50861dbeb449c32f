package io.github.vertxbeanstalkd.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The summary's JSON lines: medians per side and per-round ratios, null where a side has none. */
class MatrixSummaryTest {
  @Test
  void summaryLineCarriesMediansAndRatiosOfBothSides() {
    Map<String, List<List<CaseResult>>> results = new LinkedHashMap<>();
    results.put("put c=1 p=1", List.of(
        List.of(put(2000, 100_000), put(3000, 300_000)),
        List.of(put(1000, 200_000), put(1000, 200_000))));

    String line = summaryLines(List.of("A", "B"), results).get(0);

    assertEquals("{\"summary\":\"put c=1 p=1\",\"unit\":\"ops/s\",\"a\":2500.000,\"b\":1000.000,\"ratio\":2.500,"
        + "\"aP99Us\":200.000,\"bP99Us\":200.000,\"p99Ratio\":1.000,\"aP999Us\":400.000,\"bP999Us\":400.000,"
        + "\"aMaxUs\":800.000,\"bMaxUs\":800.000,\"aErrors\":0,\"bErrors\":0}", line);
  }

  @Test
  void oneSideLeavesTheOtherSideAndTheRatiosNull() {
    Map<String, List<List<CaseResult>>> results = new LinkedHashMap<>();
    results.put("put c=1 p=1", List.of(List.of(put(2000, 100_000))));

    String line = summaryLines(List.of("A"), results).get(0);

    assertEquals("{\"summary\":\"put c=1 p=1\",\"unit\":\"ops/s\",\"a\":2000.000,\"b\":null,\"ratio\":null,"
        + "\"aP99Us\":100.000,\"bP99Us\":null,\"p99Ratio\":null,\"aP999Us\":200.000,\"bP999Us\":null,"
        + "\"aMaxUs\":400.000,\"bMaxUs\":null,\"aErrors\":0,\"bErrors\":0}", line);
  }

  /** One second of {@code ops} puts; p50 half of p99, p99.9 twice and max four times it. */
  private static CaseResult put(long ops, long p99Nanos) {
    return new CaseResult("put c=1 p=1", "A", ops, 1.0, p99Nanos / 2, p99Nanos, 2 * p99Nanos, 4 * p99Nanos, 0,
        List.of(), Map.of(), null);
  }

  private static List<String> summaryLines(List<String> sides, Map<String, List<List<CaseResult>>> results) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    new MatrixSummary(sides, results, new PrintStream(bytes, true, StandardCharsets.UTF_8)).print();
    return bytes.toString(StandardCharsets.UTF_8).lines().filter(line -> line.startsWith("{")).toList();
  }
}
