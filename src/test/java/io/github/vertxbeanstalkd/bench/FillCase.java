package io.github.vertxbeanstalkd.bench;

import java.io.IOException;

/**
 * fill: the server's resident memory growth per stored job. RSS is read before and after putting
 * J jobs; allocators rarely give memory back, so only a fill into a freshly started server (or
 * one that never held more jobs) measures the true cost. For a JVM server the growth also holds
 * garbage not yet collected and heap the collector chose to grow: an upper bound.
 */
final class FillCase {
  private FillCase() {}

  static CaseResult run(CaseRun run) throws IOException {
    CaseSpec spec = run.spec;
    if (spec.pid() <= 0 || ProcessRss.kibibytes(spec.pid()) < 0) {
      return CaseResult.skipped(spec.label(), run.address,
          "skipped: needs the server's pid (--pid, --target-pid, --vs-pid) readable in /proc");
    }
    long beforeKib = ProcessRss.kibibytes(spec.pid());
    LongList ids = new LongList();
    run.preload(Commands.freshTube(), spec.jobs(), ids, run.meter);
    long afterKib = ProcessRss.kibibytes(spec.pid());
    run.extra.put("rssBeforeMiB", beforeKib / 1024.0);
    run.extra.put("rssAfterMiB", afterKib / 1024.0);
    run.extra.put("rssBytesPerJob", (afterKib - beforeKib) * 1024.0 / Math.max(1, ids.size()));
    run.deleteAll(ids);
    return run.result("put c=" + CaseRun.AUX_CONNECTIONS + " p=" + CaseRun.AUX_PIPELINE);
  }
}
