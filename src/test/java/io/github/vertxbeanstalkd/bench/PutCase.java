package io.github.vertxbeanstalkd.bench;

import java.io.IOException;
import java.util.List;

/** put: closed-loop puts on N connections, optionally over a deep queue in another tube. */
final class PutCase {
  private PutCase() {}

  static CaseResult run(CaseRun run) throws IOException {
    CaseSpec spec = run.spec;
    LongList queuedIds = new LongList();
    if (spec.queuedJobs() > 0) {
      Meter preload = new Meter();
      run.preload(Commands.freshTube(), spec.queuedJobs(), queuedIds, preload);
      run.extra.put("preloadJobsPerSec", preload.opsPerSecond());
    }
    LongList ids = new LongList();
    List<BenchConnection> connections =
        run.producers(spec.connections(), spec.pipeline(), Commands.freshTube());
    run.run(new PutPhase(run.errors, run.meter, connections, spec.bodyBytes(), spec.pipeline(),
        spec.warmupMillis(), spec.durationMillis(), spec.count(), ids));
    run.close(connections);
    run.deleteAll(ids);
    run.deleteAll(queuedIds);
    return run.result(null);
  }
}
