package io.github.vertxbeanstalkd.bench;

import java.io.IOException;

/**
 * prefill: puts J jobs into a tube of their own and leaves them there, so that the cases that
 * follow run over a deep backlog. Fast and unmeasured in spirit: many pipelined connections; its
 * ops/s is the fill rate. With the server's pid it also reports RSS growth per job, as fill does.
 */
final class PrefillCase {
  /**
   * Few connections, many puts in flight: beanstalkd fills fastest that way (measured on 2 cores:
   * about 75,000 jobs/s over 2 x 1024, 45,000 over 8 x 256, 30,000 over 50 x 1).
   */
  static final int CONNECTIONS = 2;
  static final int PIPELINE = 1024;

  private PrefillCase() {}

  static CaseResult run(CaseRun run) throws IOException {
    CaseSpec spec = run.spec;
    long pid = spec.pid();
    long beforeKib = pid > 0 ? ProcessRss.kibibytes(pid) : -1;
    String tube = Commands.freshTube();
    boolean isComplete = run.preload(tube, spec.jobs(), null, run.meter, CONNECTIONS, PIPELINE);
    long afterKib = pid > 0 ? ProcessRss.kibibytes(pid) : -1;
    if (beforeKib >= 0 && afterKib >= 0) {
      run.extra.put("rssBeforeMiB", beforeKib / 1024.0);
      run.extra.put("rssAfterMiB", afterKib / 1024.0);
      run.extra.put("rssBytesPerJob", (afterKib - beforeKib) * 1024.0 / Math.max(1, run.meter.ops()));
    }
    return run.result((isComplete ? "" : "incomplete: ") + "left queued in tube " + tube
        + "; put c=" + CONNECTIONS + " p=" + PIPELINE);
  }
}
