package io.github.vertxbeanstalkd.bench;

import java.io.IOException;
import java.util.List;

/** cycle: N producers and N consumers on one tube; end-to-end jobs/s and put-to-reserve latency. */
final class CycleCase {
  private CycleCase() {}

  static CaseResult run(CaseRun run) throws IOException {
    CaseSpec spec = run.spec;
    String tube = Commands.freshTube();
    // A consumer has at most one reserve and one delete in flight.
    List<BenchConnection> consumers = run.consumers(spec.connections(), 2, tube);
    List<BenchConnection> producers = run.producers(spec.connections(), spec.pipeline(), tube);
    run.run(new CyclePhase(run.errors, run.meter, producers, consumers, spec.bodyBytes(),
        spec.pipeline(), spec.maxBacklog(), spec.warmupMillis(), spec.durationMillis()));
    run.close(producers);
    run.close(consumers);
    return run.result("latency is put sent to RESERVED received");
  }
}
