package io.github.vertxbeanstalkd.bench;

import java.util.Locale;

/** The command line of {@link Bench}, parsed; every option has a default (see {@link #USAGE}). */
final class BenchOptions {
  static final long DEFAULT_PREFILL_JOBS = 5_000_000;
  static final String USAGE = """
      Usage: java -cp vertx-beanstalkd.jar io.github.vertxbeanstalkd.bench.Bench [options]

      A load generator for any beanstalkd-compatible server (one selector thread, non-blocking
      sockets). Every case prints one human line and one JSON line: ops/s, latency p50/p99/p99.9,
      and protocol errors (any unexpected reply). Each case uses a fresh tube (bench-<random>)
      and deletes the jobs it put.

      Servers:
        --target HOST:PORT    server under test (A)                  [127.0.0.1:11300]
        --vs HOST:PORT        reference server (B): run the standard matrix against both in
                              alternating rounds and print medians and A/B ratios
        --target-pid PID      A's pid, for the fill case (RSS from /proc/PID/status)
        --vs-pid PID          B's pid, for the fill case
      Mode:
        --mode MODE           matrix | put | cycle | drain | fill | prefill  [matrix]
                              put:   N connections put S-byte jobs, P in flight each
                              cycle: N producers put, N consumers reserve+delete; latency is
                                     put sent to RESERVED received
                              drain: preload J jobs, then N connections reserve+delete them all
                              fill:  put J jobs; report the server's RSS growth per job (--pid)
                              prefill: put J jobs into a tube of their own, pipelined, and
                                     leave them queued (RSS growth per job with --pid)
                              matrix: put c=1 p=1; put c=50 p=1; put c=4 p=16; cycle 10+10;
                                     drain 200000 c=4; fill 1000000 x 100 B
      Transport:
        --transport T         tcp | bus | cluster                               [tcp]
                              bus: deploy the server into this JVM (TCP on a free port, the
                                   event-bus API at --address) and load it over the event bus;
                                   the matrix runs each case over the bus (A) and over TCP
                                   against the same server (B)
                              cluster: join a Vert.x cluster as a client node (needs a cluster
                                   manager such as vertx-hazelcast on the class path, configured
                                   by -Dvertx.hazelcast.config) and load the server started with
                                   -cluster; --target is its TCP address for the B side
                              bus and cluster modes: matrix (put c=1 p=1; put c=50 p=1;
                              cycle 10+10), put, cycle; -c senders (put) or producers and
                              as many workers, each a session of its own (cycle)
        --address A           the server's event-bus address                [beanstalkd]
        --bus-client K        raw: JsonObject requests with the action header;
                              typed: the BeanstalkClient                    [raw]
        --event-loops N       event loops of the bench's Vert.x (in-JVM: shared with the
                              server, whose launcher also defaults to 1)    [1]
      Load (single modes):
        -c, --connections N   connections (cycle: producers, and as many consumers)  [1]
        -p, --pipeline P      commands in flight per connection              [1]
        -s, --size S          job body bytes                                 [100]
        --duration-ms D       measured time of put and cycle cases           [3000]
        --warmup-ms W         unmeasured load before each measured window    [500]
        --count N             put exactly N jobs instead of running for a duration
        --jobs J              jobs for drain [200000], fill [1000000] or prefill [5000000]
        --backlog B           cycle: producers pause while B jobs wait unreserved, so the
                              latency is the server's, not a queue's     [one per consumer]
        --pid PID             server pid for fill and prefill
        --prefill N           first put N jobs into a tube of their own and leave them queued,
                              so the case (matrix: every case, on both servers) runs over a
                              deep backlog; they stay after the run, so restart the server
      Matrix:
        --rounds R            rounds (A then B per case in each round)
                              [3 with --vs or a bus/cluster matrix, else 1]
        --drain-jobs J        [200000]      --fill-jobs J       [1000000]
        --deep-queue          add "put c=1 p=1" with --queued-jobs jobs queued in another tube
                              (with --mode put: run that put over such a queue)
        --queued-jobs N       [5000000] (slow: they are preloaded and deleted every round)
      Other:
        --stall-ms MS         a phase with no reply for this long stops with an error [5000]
        -h, --help            this text

      Examples:
        java -cp target/vertx-beanstalkd.jar io.github.vertxbeanstalkd.bench.Bench \\
            --target 127.0.0.1:11301 --vs 127.0.0.1:11300 --target-pid 1234 --vs-pid 5678
        java -cp target/vertx-beanstalkd.jar io.github.vertxbeanstalkd.bench.Bench \\
            --target 127.0.0.1:11300 --mode put -c 4 -p 16 --duration-ms 5000
        java @conf/jvm.options -cp target/vertx-beanstalkd.jar \\
            io.github.vertxbeanstalkd.bench.Bench --transport bus
      On 2 cores, pin the server and the generator apart: taskset -c 0 for the server,
      taskset -c 1 for the generator.
      """;

  ServerAddress target = new ServerAddress("127.0.0.1", 11300);
  boolean hasTarget;
  String transport = "tcp";
  String address = "beanstalkd";
  String busClient = "raw";
  int eventLoops = 1;
  ServerAddress versus;
  long targetPid;
  long versusPid;
  String mode = "matrix";
  int connections = 1;
  int pipeline = 1;
  int bodyBytes = 100;
  long durationMillis = 3000;
  long warmupMillis = 500;
  long count;
  long jobs;
  /** 0: as many as there are consumers. */
  long maxBacklog;
  long pid;
  int rounds;
  long drainJobs = 200_000;
  long fillJobs = 1_000_000;
  boolean hasDeepQueue;
  long prefillJobs;
  long queuedJobs = 5_000_000;
  long stallMillis = 5000;
  boolean isHelp;

  static BenchOptions parse(String... args) {
    BenchOptions o = new BenchOptions();
    for (int i = 0; i < args.length; i++) {
      String name = args[i];
      if (name.equals("-h") || name.equals("--help")) {
        o.isHelp = true;
        continue;
      }
      if (name.equals("--deep-queue")) {
        o.hasDeepQueue = true;
        continue;
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("missing value for " + name);
      }
      String value = args[++i];
      switch (name) {
        case "--target" -> {
          o.target = ServerAddress.parse(value);
          o.hasTarget = true;
        }
        case "--transport" -> o.transport = value.toLowerCase(Locale.ROOT);
        case "--address" -> o.address = value;
        case "--bus-client" -> o.busClient = value.toLowerCase(Locale.ROOT);
        case "--event-loops" -> o.eventLoops = Integer.parseInt(value);
        case "--vs" -> o.versus = ServerAddress.parse(value);
        case "--target-pid" -> o.targetPid = Long.parseLong(value);
        case "--vs-pid" -> o.versusPid = Long.parseLong(value);
        case "--mode" -> o.mode = value.toLowerCase(Locale.ROOT);
        case "-c", "--connections" -> o.connections = Integer.parseInt(value);
        case "-p", "--pipeline" -> o.pipeline = Integer.parseInt(value);
        case "-s", "--size" -> o.bodyBytes = Integer.parseInt(value);
        case "--duration-ms" -> o.durationMillis = Long.parseLong(value);
        case "--warmup-ms" -> o.warmupMillis = Long.parseLong(value);
        case "--count" -> o.count = Long.parseLong(value);
        case "--jobs" -> o.jobs = Long.parseLong(value);
        case "--backlog" -> o.maxBacklog = Long.parseLong(value);
        case "--pid" -> o.pid = Long.parseLong(value);
        case "--rounds" -> o.rounds = Integer.parseInt(value);
        case "--drain-jobs" -> o.drainJobs = Long.parseLong(value);
        case "--fill-jobs" -> o.fillJobs = Long.parseLong(value);
        case "--queued-jobs" -> o.queuedJobs = Long.parseLong(value);
        case "--prefill" -> o.prefillJobs = Long.parseLong(value);
        case "--stall-ms" -> o.stallMillis = Long.parseLong(value);
        default -> throw new IllegalArgumentException("unknown option " + name);
      }
    }
    boolean isBus = !o.transport.equals("tcp");
    if (o.rounds <= 0) {
      o.rounds = o.versus != null || (isBus && o.mode.equals("matrix")) ? 3 : 1;
    }
    if (isBus) {
      o.checkBus();
    }
    if (!o.mode.equals("matrix") && o.versus != null) {
      throw new IllegalArgumentException("--vs runs the matrix; leave out --mode");
    }
    if (o.prefillJobs < 0) {
      throw new IllegalArgumentException("--prefill must be >= 0");
    }
    if (isBus && o.prefillJobs > 0) {
      throw new IllegalArgumentException("--prefill is for TCP servers");
    }
    if (!o.mode.equals("matrix")) {
      o.singleCase();
    }
    return o;
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
      default -> throw new IllegalArgumentException("unknown mode " + mode);
    };
  }
}
