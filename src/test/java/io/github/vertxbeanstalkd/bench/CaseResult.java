package io.github.vertxbeanstalkd.bench;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What one case measured against one server, printed as one human line and one JSON line.
 *
 * @param extra case-specific numbers (fill's bytes per job, preload rates), in print order
 * @param note why a case was skipped or what limits its number, or null
 */
public record CaseResult(String label, String server, long ops, double seconds,
    long p50Nanos, long p99Nanos, long p999Nanos, long maxNanos, long errors,
    List<String> errorSamples, Map<String, Double> extra, String note) {

  static CaseResult of(String label, ServerAddress server, Meter meter, ErrorLog errors,
      Map<String, Double> extra, String note) {
    return of(label, server.toString(), meter, errors, extra, note);
  }

  /** @param server what was loaded, as reports name it (an address, or "bus beanstalkd in-JVM (raw)") */
  static CaseResult of(String label, String server, Meter meter, ErrorLog errors,
      Map<String, Double> extra, String note) {
    return new CaseResult(label, server, meter.ops(), meter.seconds(),
        meter.latencyNanosAt(50), meter.latencyNanosAt(99), meter.latencyNanosAt(99.9),
        meter.maxLatencyNanos(), errors.count(), errors.samples(), Map.copyOf(extra), note);
  }

  static CaseResult skipped(String label, ServerAddress server, String note) {
    return new CaseResult(label, server.toString(), 0, 0, 0, 0, 0, 0, 0, List.of(), Map.of(), note);
  }

  public double opsPerSecond() {
    return seconds > 0 ? ops / seconds : 0;
  }

  public boolean isSkipped() {
    return seconds == 0 && ops == 0 && errors == 0;
  }

  public String humanLine() {
    if (isSkipped()) {
      return String.format(Locale.ROOT, "%-26s %-21s (%s)", label, server, note);
    }
    StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
        "%-26s %-21s %10.0f ops/s  p50=%s p99=%s p99.9=%s max=%s  ops=%d in %.2f s  errors=%d",
        label, server, opsPerSecond(), micros(p50Nanos), micros(p99Nanos), micros(p999Nanos),
        micros(maxNanos), ops, seconds, errors));
    extra.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e ->
        line.append(String.format(Locale.ROOT, "  %s=%.1f", e.getKey(), e.getValue())));
    if (note != null) {
      line.append("  (").append(note).append(')');
    }
    for (String sample : errorSamples) {
      line.append("\n    error: ").append(sample);
    }
    return line.toString();
  }

  public String jsonLine() {
    JsonLine json = new JsonLine()
        .text("case", label)
        .text("server", server)
        .count("ops", ops)
        .number("seconds", seconds)
        .number("opsPerSec", opsPerSecond())
        .number("p50Us", p50Nanos / 1e3)
        .number("p99Us", p99Nanos / 1e3)
        .number("p999Us", p999Nanos / 1e3)
        .number("maxUs", maxNanos / 1e3)
        .count("errors", errors)
        .texts("errorSamples", errorSamples);
    extra.entrySet().stream().sorted(Map.Entry.comparingByKey())
        .forEach(e -> json.number(e.getKey(), e.getValue()));
    if (note != null) {
      json.text("note", note);
    }
    return json.toString();
  }

  static String micros(long nanos) {
    if (nanos >= 10_000_000) {
      return String.format(Locale.ROOT, "%.0fms", nanos / 1e6);
    }
    return String.format(Locale.ROOT, "%.0fus", nanos / 1e3);
  }
}
