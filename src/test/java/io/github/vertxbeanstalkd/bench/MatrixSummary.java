package io.github.vertxbeanstalkd.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Medians per case and side, and the median over rounds of the per-round ratio A/B: the ratio of
 * runs made close together in time, which cancels the machine's drift better than a ratio of
 * medians. Fill compares RSS bytes per job instead of ops/s.
 */
final class MatrixSummary {
  private final List<String> sides;
  private final Map<String, List<List<CaseResult>>> results;
  private final PrintStream out;

  /** @param sides what A and B are, for the heading (addresses, or "bus beanstalkd in-JVM (raw)") */
  MatrixSummary(List<String> sides, Map<String, List<List<CaseResult>>> results,
      PrintStream out) {
    this.sides = sides;
    this.results = results;
    this.out = out;
  }

  void print() {
    boolean isPair = sides.size() == 2;
    out.println("# summary: medians over rounds; A = " + sides.get(0)
        + (isPair ? ", B = " + sides.get(1) + "; ratios are medians of per-round A/B" : ""));
    out.println(String.format(Locale.ROOT, "%-26s %12s %12s %7s %9s %9s %8s %9s %9s %9s %9s %9s",
        "case", "A", "B", "A/B", "A p99", "B p99", "p99 A/B", "A p99.9", "B p99.9", "A max", "B max",
        "errors"));
    for (Map.Entry<String, List<List<CaseResult>>> entry : results.entrySet()) {
      List<List<CaseResult>> perSide = entry.getValue();
      boolean isFill = perSide.get(0).get(0).extra().containsKey("rssBytesPerJob")
          || entry.getKey().startsWith("fill");
      ToDoubleFunction<CaseResult> metric = isFill
          ? r -> r.extra().getOrDefault("rssBytesPerJob", Double.NaN)
          : r -> r.isSkipped() ? Double.NaN : r.opsPerSecond();
      ToDoubleFunction<CaseResult> p99 = r -> r.isSkipped() ? Double.NaN : r.p99Nanos();
      double a = median(perSide.get(0), metric);
      double b = isPair ? median(perSide.get(1), metric) : Double.NaN;
      double ratio = isPair ? medianRatio(perSide, metric) : Double.NaN;
      double aP99 = median(perSide.get(0), p99);
      double bP99 = isPair ? median(perSide.get(1), p99) : Double.NaN;
      double p99Ratio = isPair ? medianRatio(perSide, p99) : Double.NaN;
      ToDoubleFunction<CaseResult> p999 = r -> r.isSkipped() ? Double.NaN : r.p999Nanos();
      ToDoubleFunction<CaseResult> max = r -> r.isSkipped() ? Double.NaN : r.maxNanos();
      double aP999 = median(perSide.get(0), p999);
      double bP999 = isPair ? median(perSide.get(1), p999) : Double.NaN;
      double aMax = median(perSide.get(0), max);
      double bMax = isPair ? median(perSide.get(1), max) : Double.NaN;
      long aErrors = perSide.get(0).stream().mapToLong(CaseResult::errors).sum();
      long bErrors = isPair ? perSide.get(1).stream().mapToLong(CaseResult::errors).sum() : 0;
      String unit = isFill ? " B/job" : " ops/s";
      out.println(String.format(Locale.ROOT, "%-26s %12s %12s %7s %9s %9s %8s %9s %9s %9s %9s %4d/%-4d",
          entry.getKey(), fixed(a, 0), fixed(b, 0), fixed(ratio, 2),
          micros(aP99), micros(bP99), fixed(p99Ratio, 2), micros(aP999), micros(bP999),
          micros(aMax), micros(bMax), aErrors, bErrors));
      out.println(new JsonLine()
          .text("summary", entry.getKey())
          .text("unit", unit.trim())
          .number("a", a)
          .number("b", b)
          .number("ratio", ratio)
          .number("aP99Us", aP99 / 1e3)
          .number("bP99Us", bP99 / 1e3)
          .number("p99Ratio", p99Ratio)
          .number("aP999Us", aP999 / 1e3)
          .number("bP999Us", bP999 / 1e3)
          .number("aMaxUs", aMax / 1e3)
          .number("bMaxUs", bMax / 1e3)
          .count("aErrors", aErrors)
          .count("bErrors", bErrors));
    }
    printHeadlines(isPair);
  }

  private void printHeadlines(boolean isPair) {
    List<List<CaseResult>> c50 = results.get(Matrix.PUT_C50_LABEL);
    if (isPair && c50 != null) {
      out.println("# put c=50 p=1 p99 latency ratio A/B: "
          + fixed(medianRatio(c50, r -> r.p99Nanos()), 2));
    }
    List<List<CaseResult>> empty = results.get(Matrix.PUT_C1_LABEL);
    results.forEach((label, deep) -> {
      if (label.startsWith(Matrix.PUT_C1_LABEL + " queued=") && empty != null) {
        for (int side = 0; side < sides.size(); side++) {
          double ratio = median(deep.get(side), CaseResult::opsPerSecond)
              / median(empty.get(side), CaseResult::opsPerSecond);
          out.println("# " + label + " vs empty, ops/s ratio on " + sides.get(side) + ": "
              + fixed(ratio, 2));
        }
      }
    });
  }

  static double median(List<CaseResult> runs, ToDoubleFunction<CaseResult> metric) {
    return median(runs.stream().mapToDouble(metric).filter(v -> !Double.isNaN(v)).toArray());
  }

  static double medianRatio(List<List<CaseResult>> perSide,
      ToDoubleFunction<CaseResult> metric) {
    List<Double> ratios = new ArrayList<>();
    for (int round = 0; round < Math.min(perSide.get(0).size(), perSide.get(1).size()); round++) {
      double b = metric.applyAsDouble(perSide.get(1).get(round));
      double a = metric.applyAsDouble(perSide.get(0).get(round));
      if (b != 0 && !Double.isNaN(a) && !Double.isNaN(b)) {
        ratios.add(a / b);
      }
    }
    return median(ratios.stream().mapToDouble(Double::doubleValue).toArray());
  }

  static double median(double[] values) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int mid = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  }

  static String fixed(double value, int decimals) {
    return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", value);
  }

  private static String micros(double nanos) {
    return Double.isNaN(nanos) ? "-" : CaseResult.micros((long) nanos);
  }
}
