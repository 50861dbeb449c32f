package io.github.vertxbeanstalkd.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the standard matrix against A (--target) and, with --vs, B in alternating runs: each
 * round runs every case on A and then on B, so slow drift of the machine hits both sides alike.
 */
final class MatrixRun {
  private final BenchOptions options;
  private final PrintStream out;

  MatrixRun(BenchOptions options, PrintStream out) {
    this.options = options;
    this.out = out;
  }

  /** Returns the total number of protocol errors seen. */
  long run() {
    List<CaseSpec> cases = Matrix.standard(options);
    List<ServerAddress> sides = new ArrayList<>(List.of(options.target));
    List<Long> pids = new ArrayList<>(List.of(options.targetPid));
    if (options.versus != null) {
      sides.add(options.versus);
      pids.add(options.versusPid);
    }
    Map<String, List<List<CaseResult>>> results = new LinkedHashMap<>();
    long errors = 0;
    for (int round = 1; round <= options.rounds; round++) {
      out.println("# round " + round + " of " + options.rounds);
      for (CaseSpec spec : cases) {
        if (round > 1 && Matrix.isFirstRoundOnly(spec)) {
          continue;
        }
        List<List<CaseResult>> perSide = results.computeIfAbsent(spec.label(), label -> {
          List<List<CaseResult>> empty = new ArrayList<>();
          sides.forEach(side -> empty.add(new ArrayList<>()));
          return empty;
        });
        for (int side = 0; side < sides.size(); side++) {
          CaseResult result = CaseRun.execute(spec.withPid(pids.get(side)), sides.get(side),
              options.stallMillis);
          out.println(result.humanLine());
          out.println(result.jsonLine());
          out.flush();
          perSide.get(side).add(result);
          errors += result.errors();
        }
      }
    }
    new MatrixSummary(sides.stream().map(ServerAddress::toString).toList(), results, out).print();
    return errors;
  }
}
