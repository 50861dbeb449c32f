package io.github.vertxbeanstalkd.bench;

import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;

/** The command line of {@link Bench}, parsed by picocli; every option has a default ({@code --help}). */
@Command(name = "java -cp vertx-beanstalkd.jar io.github.vertxbeanstalkd.bench.Bench",
    abbreviateSynopsis = true, sortOptions = false, usageHelpWidth = 100,
    description = {
        "A load generator for any beanstalkd-compatible server (one selector thread, non-blocking",
        "sockets). Every case prints one human line and one JSON line: ops/s, latency p50/p99/p99.9,",
        "and protocol errors (any unexpected reply). Each case uses a fresh tube (bench-<random>)",
        "and deletes the jobs it put.",
        ""},
    footer = {
        "",
        "Examples:",
        "  java -cp target/vertx-beanstalkd.jar io.github.vertxbeanstalkd.bench.Bench \\",
        "      --target 127.0.0.1:11301 --vs 127.0.0.1:11300 --target-pid 1234 --vs-pid 5678",
        "  java -cp target/vertx-beanstalkd.jar io.github.vertxbeanstalkd.bench.Bench \\",
        "      --target 127.0.0.1:11300 --mode put -c 4 -p 16 --duration-ms 5000",
        "  java @conf/jvm.options -cp target/vertx-beanstalkd.jar \\",
        "      io.github.vertxbeanstalkd.bench.Bench --transport bus",
        "On 2 cores, pin the server and the generator apart: taskset -c 0 for the server,",
        "taskset -c 1 for the generator."})
final class BenchOptions {
  static final long DEFAULT_PREFILL_JOBS = 5_000_000;

  @Option(names = "--target", paramLabel = "HOST:PORT",
      description = "Server under test (A); default ${DEFAULT-VALUE}.")
  ServerAddress target = new ServerAddress("127.0.0.1", 11300);
  /** Whether --target was given: a cluster run has no TCP side without it. */
  boolean hasTarget;
  @Option(names = "--vs", paramLabel = "HOST:PORT", description = {
      "Reference server (B): run the standard matrix against both in alternating rounds and print"
          + " medians and A/B ratios."})
  ServerAddress versus;
  @Option(names = "--target-pid", paramLabel = "PID",
      description = "A's pid, for the fill case (RSS from /proc/PID/status).")
  long targetPid;
  @Option(names = "--vs-pid", paramLabel = "PID", description = "B's pid, for the fill case.")
  long versusPid;
  @Option(names = "--mode", paramLabel = "MODE", description = {
      "matrix | put | cycle | drain | fill | prefill; default ${DEFAULT-VALUE}.",
      "put: N connections put S-byte jobs, P in flight each.",
      "cycle: N producers put, N consumers reserve+delete; latency is put sent to RESERVED received.",
      "drain: preload J jobs, then N connections reserve+delete them all.",
      "fill: put J jobs; report the server's RSS growth per job (--pid).",
      "prefill: put J jobs into a tube of their own, pipelined, and leave them queued (RSS growth"
          + " per job with --pid).",
      "matrix: put c=1 p=1; put c=50 p=1; put c=4 p=16; cycle 10+10; drain 200000 c=4; fill 1000000"
          + " x 100 B."})
  String mode = "matrix";
  @Option(names = "--transport", paramLabel = "T", description = {
      "tcp | bus | cluster; default ${DEFAULT-VALUE}.",
      "bus: deploy the server into this JVM (TCP on a free port, the event-bus API at --address) and"
          + " load it over the event bus; the matrix runs each case over the bus (A) and over TCP"
          + " against the same server (B).",
      "cluster: join a Vert.x cluster as a client node and load the server started with -cluster;"
          + " --target is its TCP address for the B side. Needs a cluster manager on the class path,"
          + " such as vertx-hazelcast, configured by -Dvertx.hazelcast.config=FILE.",
      "bus and cluster modes: matrix (put c=1 p=1; put c=50 p=1; cycle 10+10), put, cycle; -c"
          + " senders (put) or producers and as many workers, each a session of its own (cycle)."})
  String transport = "tcp";
  @Option(names = "--address", paramLabel = "A",
      description = "The server's event-bus address; default ${DEFAULT-VALUE}.")
  String address = "beanstalkd";
  @Option(names = "--bus-client", paramLabel = "K", description = {
      "raw: JsonObject requests with the action header; typed: the BeanstalkClient;"
          + " default ${DEFAULT-VALUE}."})
  String busClient = "raw";
  @Option(names = "--event-loops", paramLabel = "N", description = {
      "Event loops of the bench's Vert.x (in-JVM: shared with the server, whose launcher also"
          + " defaults to 1); default ${DEFAULT-VALUE}."})
  int eventLoops = 1;
  @Option(names = {"-c", "--connections"}, paramLabel = "N",
      description = "Connections (cycle: producers, and as many consumers); default ${DEFAULT-VALUE}.")
  int connections = 1;
  @Option(names = {"-p", "--pipeline"}, paramLabel = "P",
      description = "Commands in flight per connection; default ${DEFAULT-VALUE}.")
  int pipeline = 1;
  @Option(names = {"-s", "--size"}, paramLabel = "S", description = "Job body bytes; default ${DEFAULT-VALUE}.")
  int bodyBytes = 100;
  @Option(names = "--duration-ms", paramLabel = "D",
      description = "Measured time of put and cycle cases; default ${DEFAULT-VALUE}.")
  long durationMillis = 3000;
  @Option(names = "--warmup-ms", paramLabel = "W",
      description = "Unmeasured load before each measured window; default ${DEFAULT-VALUE}.")
  long warmupMillis = 500;
  @Option(names = "--count", paramLabel = "N", description = "Put exactly N jobs instead of running for a duration.")
  long count;
  @Option(names = "--jobs", paramLabel = "J",
      description = "Jobs for drain [200000], fill [1000000] or prefill [5000000].")
  long jobs;
  /** 0: as many as there are consumers. */
  @Option(names = "--backlog", paramLabel = "B", description = {
      "cycle: producers pause while B jobs wait unreserved, so the latency is the server's, not a"
          + " queue's; default one per consumer."})
  long maxBacklog;
  @Option(names = "--pid", paramLabel = "PID", description = "Server pid for fill and prefill.")
  long pid;
  @Option(names = "--prefill", paramLabel = "N", description = {
      "First put N jobs into a tube of their own and leave them queued, so the case (matrix: every"
          + " case, on both servers) runs over a deep backlog; they stay after the run, so restart the"
          + " server."})
  long prefillJobs;
  /** 0 until parsed: then 3 with --vs or a bus/cluster matrix, else 1. */
  @Option(names = "--rounds", paramLabel = "R", description = {
      "Matrix rounds (A then B per case in each round); default 3 with --vs or a bus/cluster"
          + " matrix, else 1."})
  int rounds;
  @Option(names = "--drain-jobs", paramLabel = "J", description = "Matrix drain jobs; default ${DEFAULT-VALUE}.")
  long drainJobs = 200_000;
  @Option(names = "--fill-jobs", paramLabel = "J", description = "Matrix fill jobs; default ${DEFAULT-VALUE}.")
  long fillJobs = 1_000_000;
  @Option(names = "--deep-queue", description = {
      "Matrix: add \"put c=1 p=1\" with --queued-jobs jobs queued in another tube (with --mode put:"
          + " run that put over such a queue)."})
  boolean hasDeepQueue;
  @Option(names = "--queued-jobs", paramLabel = "N", description = {
      "Jobs queued for --deep-queue; default ${DEFAULT-VALUE} (slow: they are preloaded and deleted"
          + " every round)."})
  long queuedJobs = 5_000_000;
  @Option(names = "--stall-ms", paramLabel = "MS",
      description = "A phase with no reply for this long stops with an error; default ${DEFAULT-VALUE}.")
  long stallMillis = 5000;
  @Option(names = "--stdin", description = {
      "Read cases from standard input, one per line (the options of one case, e.g. --target",
      "  127.0.0.1:11301 --mode put -c 50 --warmup-ms 0 --duration-ms 5000), and run each the moment",
      "  its line arrives, its timed window starting then: connecting counts. For scripts that start",
      "  a server and send the line as its port opens (src/test/scripts/first_seconds.py); the JVM",
      "  stays warm from one case to the next. Prints each result's lines and then a line \"done\"."})
  boolean isStdin;
  @Option(names = "--slice-ms", paramLabel = "MS", description = {
      "Put and cycle: also report ops/s, p99 and max per MS of the window (sliceNOpsPerSec, ...),",
      "  and the window without its first slice (afterSlice0OpsPerSec, ...); default 0, off."})
  long sliceMillis;
  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Print this text.")
  boolean isHelp;

  /** Parses and checks {@code args}; a bad command line throws with a message for the user. */
  static BenchOptions parse(String... args) {
    BenchOptions o = new BenchOptions();
    try {
      o.hasTarget = commandLine(o).parseArgs(args).hasMatchedOption("--target");
    } catch (ParameterException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    if (!o.isHelp) {
      o.check();
    }
    return o;
  }

  /** What --help prints. */
  static String usage() {
    return commandLine(new BenchOptions()).getUsageMessage();
  }

  private static CommandLine commandLine(BenchOptions options) {
    return new CommandLine(options)
        .registerConverter(ServerAddress.class, BenchOptions::serverAddress)
        // The last of a repeated option wins, so a script's options can be overridden after them.
        .setOverwrittenOptionsAllowed(true);
  }

  private static ServerAddress serverAddress(String text) {
    try {
      return ServerAddress.parse(text);
    } catch (IllegalArgumentException e) {
      // picocli reports this message with the option's name; a bad port is a bad host:port too.
      throw new TypeConversionException("expected host:port, got " + text);
    }
  }

  private void check() {
    transport = transport.toLowerCase(Locale.ROOT);
    busClient = busClient.toLowerCase(Locale.ROOT);
    mode = mode.toLowerCase(Locale.ROOT);
    boolean isBus = !transport.equals("tcp");
    if (rounds <= 0) {
      rounds = versus != null || (isBus && mode.equals("matrix")) ? 3 : 1;
    }
    if (isBus) {
      checkBus();
    }
    if (!mode.equals("matrix") && versus != null) {
      throw new IllegalArgumentException("--vs runs the matrix; leave out --mode");
    }
    if (prefillJobs < 0) {
      throw new IllegalArgumentException("--prefill must be >= 0");
    }
    if (isBus && prefillJobs > 0) {
      throw new IllegalArgumentException("--prefill is for TCP servers");
    }
    if (!mode.equals("matrix")) {
      singleCase();
    }
  }

  private void checkBus() {
    if (!transport.equals("bus") && !transport.equals("cluster")) {
      throw new IllegalArgumentException("unknown transport " + transport + " (tcp, bus or cluster)");
    }
    if (!mode.equals("matrix") && !mode.equals("put") && !mode.equals("cycle")) {
      throw new IllegalArgumentException("--transport " + transport + " runs matrix, put or cycle");
    }
    if (versus != null) {
      throw new IllegalArgumentException("--vs is for TCP servers; the bus matrix compares with TCP itself");
    }
    if (!busClient.equals("raw") && !busClient.equals("typed")) {
      throw new IllegalArgumentException("unknown bus client " + busClient + " (raw or typed)");
    }
    if (eventLoops < 1) {
      throw new IllegalArgumentException("--event-loops must be >= 1");
    }
    if (bodyBytes < BusBodies.STAMP_CHARS && !mode.equals("put")) {
      throw new IllegalArgumentException("bus cycle bodies carry a 16-character timestamp: size >= 16");
    }
  }

  /** The case that fills {@code jobs} into a tube of their own before the measured cases. */
  CaseSpec prefillCase(long jobs) {
    return new CaseSpec(CaseSpec.Mode.PREFILL, 1, 1, bodyBytes, 0, -1, 0, jobs, 0, 0, pid);
  }

  /** The single case that --mode asks for. */
  CaseSpec singleCase() {
    return switch (mode) {
      case "put" -> new CaseSpec(CaseSpec.Mode.PUT, connections, pipeline, bodyBytes, warmupMillis,
          count > 0 ? -1 : durationMillis, count, 0, hasDeepQueue ? queuedJobs : 0, maxBacklog,
          pid);
      case "cycle" -> new CaseSpec(CaseSpec.Mode.CYCLE, connections, pipeline, bodyBytes,
          warmupMillis, durationMillis, 0, 0, 0, maxBacklog, pid);
      case "drain" -> new CaseSpec(CaseSpec.Mode.DRAIN, connections, pipeline, bodyBytes,
          warmupMillis, durationMillis, 0, jobs > 0 ? jobs : drainJobs, 0, maxBacklog, pid);
      case "fill" -> new CaseSpec(CaseSpec.Mode.FILL, connections, pipeline, bodyBytes,
          warmupMillis, durationMillis, 0, jobs > 0 ? jobs : fillJobs, 0, maxBacklog, pid);
      case "prefill" -> prefillCase(jobs > 0 ? jobs : DEFAULT_PREFILL_JOBS);
      default -> throw new IllegalArgumentException(
          "unknown mode " + mode + " (matrix, put, cycle, drain, fill or prefill)");
    };
  }
}
