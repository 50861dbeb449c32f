package io.github.vertxbeanstalkd.bench;

import java.util.ArrayList;
import java.util.List;

/** The standard cases, in the order one round runs them. */
final class Matrix {
  static final String PUT_C50_LABEL = "put c=50 p=1";
  static final String PUT_C1_LABEL = "put c=1 p=1";

  private Matrix() {}

  /**
   * Prefill, if asked for, comes first, so that every case runs over its backlog. Fill comes
   * next: RSS seldom shrinks after jobs are deleted, so it is measured on a server
   * that has not yet held the other cases' jobs, and only in the first round.
   */
  static List<CaseSpec> standard(BenchOptions o) {
    int size = o.bodyBytes;
    long warmup = o.warmupMillis;
    long duration = o.durationMillis;
    long backlog = o.maxBacklog;
    List<CaseSpec> cases = new ArrayList<>();
    if (o.prefillJobs > 0) {
      cases.add(o.prefillCase(o.prefillJobs));
    }
    cases.add(new CaseSpec(CaseSpec.Mode.FILL, 1, 1, size, 0, -1, 0, o.fillJobs, 0, backlog, 0));
    cases.add(new CaseSpec(CaseSpec.Mode.PUT, 1, 1, size, warmup, duration, 0, 0, 0, backlog, 0));
    cases.add(new CaseSpec(CaseSpec.Mode.PUT, 50, 1, size, warmup, duration, 0, 0, 0, backlog, 0));
    cases.add(new CaseSpec(CaseSpec.Mode.PUT, 4, 16, size, warmup, duration, 0, 0, 0, backlog, 0));
    cases.add(new CaseSpec(CaseSpec.Mode.CYCLE, 10, 1, Math.max(size, Commands.TIMESTAMP_BYTES),
        warmup, duration, 0, 0, 0, backlog, 0));
    cases.add(new CaseSpec(CaseSpec.Mode.DRAIN, 4, 1, size, 0, -1, 0, o.drainJobs, 0, backlog, 0));
    if (o.hasDeepQueue) {
      cases.add(new CaseSpec(CaseSpec.Mode.PUT, 1, 1, size, warmup, duration, 0, 0, o.queuedJobs,
          backlog, 0));
    }
    return cases;
  }

  /** Whether the case runs only in the first round: fill, and prefill, whose jobs stay queued. */
  static boolean isFirstRoundOnly(CaseSpec spec) {
    return spec.mode() == CaseSpec.Mode.FILL || spec.mode() == CaseSpec.Mode.PREFILL;
  }
}
