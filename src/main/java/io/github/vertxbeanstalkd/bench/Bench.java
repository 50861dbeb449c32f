package io.github.vertxbeanstalkd.bench;

import java.io.PrintStream;

/**
 * The load generator's entry point: {@code java -cp vertx-beanstalkd.jar
 * io.github.vertxbeanstalkd.bench.Bench --help}. Exit status 0, 1 if any protocol error was seen,
 * 2 for a bad command line.
 */
public final class Bench {
  private Bench() {}

  public static void main(String[] args) {
    BenchOptions options;
    try {
      options = BenchOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("bench: " + e.getMessage());
      System.err.println("Try --help.");
      System.exit(2);
      return;
    }
    if (options.isHelp) {
      System.out.print(BenchOptions.usage());
      return;
    }
    long errors = run(options, System.out);
    System.exit(errors == 0 ? 0 : 1);
  }

  /** Runs what the options ask for and returns the number of protocol errors seen. */
  static long run(BenchOptions options, PrintStream out) {
    if (!options.transport.equals("tcp")) {
      return BusBench.run(options, out);
    }
    if (options.mode.equals("matrix")) {
      return new MatrixRun(options, out).run();
    }
    long errors = 0;
    if (options.prefillJobs > 0) {
      CaseResult prefill = run(options.prefillCase(options.prefillJobs), options.target,
          options.stallMillis);
      out.println(prefill.humanLine());
      out.println(prefill.jsonLine());
      errors += prefill.errors();
    }
    CaseResult result = run(options.singleCase(), options.target, options.stallMillis);
    out.println(result.humanLine());
    out.println(result.jsonLine());
    return errors + result.errors();
  }

  /** Runs one case against one server. */
  public static CaseResult run(CaseSpec spec, ServerAddress server, long stallMillis) {
    return CaseRun.execute(spec, server, stallMillis);
  }
}
