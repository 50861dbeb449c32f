package io.github.vertxbeanstalkd.bench;

import java.io.IOException;
import java.util.List;

/** drain: preload J jobs, then N connections reserve and delete them all. */
final class DrainCase {
  private DrainCase() {}

  static CaseResult run(CaseRun run) throws IOException {
    CaseSpec spec = run.spec;
    String tube = Commands.freshTube();
    Meter preload = new Meter();
    LongList ids = new LongList();
    boolean isPreloaded = run.preload(tube, spec.jobs(), ids, preload);
    run.extra.put("preloadJobsPerSec", preload.opsPerSecond());
    if (!isPreloaded) {
      run.deleteAll(ids);
      return run.result("preload failed");
    }
    List<BenchConnection> consumers = run.consumers(spec.connections(), 2 * spec.pipeline(), tube);
    run.run(new ReservePhase(run.errors, run.meter, consumers, spec.jobs(), spec.pipeline()));
    run.close(consumers);
    return run.result("latency is reserve sent to RESERVED received");
  }
}
