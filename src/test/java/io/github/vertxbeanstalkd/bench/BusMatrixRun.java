package io.github.vertxbeanstalkd.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bus matrix: each case over the event bus (A) and over TCP against the same server (B), in
 * alternating rounds (A then B, then B then A, ...) so that drift and warm-up hit both sides
 * alike; then the medians and the per-round A/B ratios. In-JVM, server, bus load and TCP load
 * share one JVM.
 */
final class BusMatrixRun {
  /** The goal: in-JVM put c=50 over the bus at least twice TCP's. */
  static final double PUT_C50_GOAL = 2.0;

  private final BenchOptions options;
  private final BusTarget target;
  private final PrintStream out;

  BusMatrixRun(BenchOptions options, BusTarget target, PrintStream out) {
    this.options = options;
    this.target = target;
    this.out = out;
  }

  /** The cases: put c=1 p=1, put c=50 p=1, cycle 10+10. */
  static List<CaseSpec> cases(BenchOptions o) {
    int size = o.bodyBytes;
    long warmup = o.warmupMillis;
    long duration = o.durationMillis;
    return List.of(
        new CaseSpec(CaseSpec.Mode.PUT, 1, 1, size, warmup, duration, 0, 0, 0, 0, 0),
        new CaseSpec(CaseSpec.Mode.PUT, 50, 1, size, warmup, duration, 0, 0, 0, 0, 0),
        new CaseSpec(CaseSpec.Mode.CYCLE, 10, 1, size, warmup, duration, 0, 0, 0, o.maxBacklog, 0));
  }

  /** Returns the total number of errors seen. */
  long run() {
    ServerAddress tcp = target.tcp();
    String busSide = target.name() + " (" + options.busClient + ")";
    List<String> sides = tcp == null ? List.of(busSide) : List.of(busSide, "tcp " + tcp + " (same server)");
    Map<String, List<List<CaseResult>>> results = new LinkedHashMap<>();
    long errors = 0;
    for (int round = 1; round <= options.rounds; round++) {
      out.println("# round " + round + " of " + options.rounds);
      for (CaseSpec spec : cases(options)) {
        List<List<CaseResult>> perSide = results.computeIfAbsent(spec.label(), label -> {
          List<List<CaseResult>> empty = new ArrayList<>();
          sides.forEach(side -> empty.add(new ArrayList<>()));
          return empty;
        });
        for (int i = 0; i < sides.size(); i++) {
          int side = round % 2 == 1 ? i : sides.size() - 1 - i;
          CaseResult result = side == 0
              ? BusCase.run(target, spec, options.busClient, options.stallMillis)
              : CaseRun.execute(spec, tcp, options.stallMillis);
          out.println(result.humanLine());
          out.println(result.jsonLine());
          out.flush();
          perSide.get(side).add(result);
          errors += result.errors();
        }
      }
    }
    new MatrixSummary(sides, results, out).print();
    List<List<CaseResult>> c50 = results.get(Matrix.PUT_C50_LABEL);
    if (c50 != null && c50.size() == 2) {
      double ratio = MatrixSummary.medianRatio(c50, CaseResult::opsPerSecond);
      out.println("# put c=50 p=1, bus/TCP ops/s: " + MatrixSummary.fixed(ratio, 2) + " (goal >= "
          + MatrixSummary.fixed(PUT_C50_GOAL, 1) + ": " + (ratio >= PUT_C50_GOAL ? "met" : "not met") + ")");
    }
    return errors;
  }
}
