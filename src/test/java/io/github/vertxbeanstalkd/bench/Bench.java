package io.github.vertxbeanstalkd.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.function.IntConsumer;

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
    if (options.isStdin) {
      return runLines(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)), out);
    }
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
    CaseResult result = CaseRun.execute(options.singleCase(), options.target,
        options.stallMillis, Long.MIN_VALUE, options.sliceMillis, null);
    out.println(result.humanLine());
    out.println(result.jsonLine());
    return errors + result.errors();
  }

  /**
   * --stdin: runs one TCP case per line, its timed window anchored at the moment the line was
   * read; a bad line prints "error: ..." instead of a result. Returns the protocol errors seen.
   */
  static long runLines(BufferedReader in, PrintStream out) {
    long errors = 0;
    try {
      for (String line; (line = in.readLine()) != null; ) {
        long readAtNanos = System.nanoTime();
        if (line.isBlank()) {
          continue;
        }
        try {
          BenchOptions options = BenchOptions.parse(line.trim().split("\\s+"));
          if (options.isStdin || !options.transport.equals("tcp") || options.mode.equals("matrix")) {
            throw new IllegalArgumentException("a line is one TCP case (--mode put, cycle, ...)");
          }
          CaseResult result = CaseRun.execute(options.singleCase(), options.target,
              options.stallMillis, readAtNanos, options.sliceMillis, null);
          out.println(result.humanLine());
          out.println(result.jsonLine());
          errors += result.errors();
        } catch (IllegalArgumentException e) {
          out.println("error: " + e.getMessage());
        }
        out.println("done");
        out.flush();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return errors;
  }

  /** Runs one case against one server. */
  public static CaseResult run(CaseSpec spec, ServerAddress server, long stallMillis) {
    return CaseRun.execute(spec, server, stallMillis);
  }

  /**
   * Runs one case against one server, telling {@code localPorts} the local port of each
   * connection before it connects (a listener that serves only known clients can then
   * admit them).
   */
  public static CaseResult run(CaseSpec spec, ServerAddress server, long stallMillis,
      IntConsumer localPorts) {
    return CaseRun.execute(spec, server, stallMillis, Long.MIN_VALUE, 0, localPorts);
  }
}
