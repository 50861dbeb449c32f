package io.github.vertxbeanstalkd.bench;

import java.io.PrintStream;

/** The bench over the event bus (--transport bus or cluster): one case, or the bus matrix. */
final class BusBench {
  private BusBench() {}

  /** Runs what the options ask for and returns the number of errors seen. */
  static long run(BenchOptions options, PrintStream out) {
    BusTarget target;
    try {
      target = options.transport.equals("cluster")
          ? BusTarget.cluster(options.eventLoops, options.address, options.hasTarget ? options.target : null)
          : BusTarget.inJvm(options.eventLoops, options.address);
    } catch (RuntimeException e) {
      out.println("# bench: " + e.getMessage());
      return 1;
    }
    try (target) {
      out.println("# " + target.name() + ", tcp " + (target.tcp() == null ? "-" : target.tcp()) + ", "
          + options.eventLoops + " event loop(s) in the bench's Vert.x, " + target.describeThreads());
      if (options.mode.equals("matrix")) {
        return new BusMatrixRun(options, target, out).run();
      }
      CaseResult result = BusCase.run(target, options.singleCase(), options.busClient, options.stallMillis);
      out.println(result.humanLine());
      out.println(result.jsonLine());
      return result.errors();
    }
  }
}
