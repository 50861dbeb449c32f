package io.github.vertxbeanstalkd.bench;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/** drain: preload J jobs, then N connections reserve and delete them all. */
final class DrainCase {
  private DrainCase() {}

  static CaseResult run(CaseRun run) throws IOException {
    CaseSpec spec = run.spec;
    String tube = Commands.freshTube();
    Meter preload = new Meter();
    LongList ids = new LongList();
    if (!run.preload(tube, spec.jobs(), ids, preload)) {
      run.deleteAll(ids);
      return CaseResult.of(spec.label(), run.address, new Meter(), run.errors, Map.of(),
          "preload failed");
    }
    List<BenchConnection> consumers = run.consumers(spec.connections(), 2 * spec.pipeline(), tube);
    Meter meter = new Meter();
    run.run(new ReservePhase(run.errors, meter, consumers, spec.jobs(), spec.pipeline()));
    run.close(consumers);
    return CaseResult.of(spec.label(), run.address, meter, run.errors,
        Map.of("preloadJobsPerSec", preload.opsPerSecond()),
        "latency is reserve sent to RESERVED received");
  }
}
