package io.github.vertxbeanstalkd.warmup;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.github.vertxbeanstalkd.bench.Bench;
import io.github.vertxbeanstalkd.bench.CaseResult;
import io.github.vertxbeanstalkd.bench.CaseSpec;
import io.github.vertxbeanstalkd.bench.ServerAddress;
import io.github.vertxbeanstalkd.config.ServerConfig;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The load part of a {@link Rehearsal}: the shipped load generator ({@link Bench}) puts the
 * throwaway server through the shapes clients load a server with, round after round, until the
 * JIT compilers have nothing left to do, so that the real port opens on code compiled for that
 * load.
 *
 * <p>Why: the command-by-command script gets every path loaded and past the interpreter, but the
 * hot paths only reach the optimising compiler (C2) after thousands of commands, and compiling them
 * takes seconds of CPU (measured: about 800 methods, 5 s of a core). On a fresh server that
 * happened under the first clients' load, on the same core: put c=50 ran at 0.45x beanstalkd with a
 * p99 of 6.8x in the first 5 s (src/test/scripts/first-seconds.py); a compiler thread that takes the
 * core for a few milliseconds is the tail.
 *
 * <p>Every round runs on a new throwaway server ({@link RehearsalStage}), as the real server starts
 * empty, and is followed by a pause in which the compilers have the core to themselves, until
 * they stop using it (or {@link #DRAIN_NANOS}): the work a round queued is done without the load
 * competing for the CPU, and the next round then finds code that is compiled. Measured in CPU time
 * ({@link CompilerShare}), so a busy machine slows the rehearsal but does not fool it: the load stops
 * once a round and its pause kept the compilers below {@link #SETTLED_SHARE} of the process's CPU,
 * or at {@link #MAX_NANOS} whatever they still do. Every connection's local port goes into the
 * rehearsal listener's admission set first.
 */
final class RehearsalLoad {
  /** A round (with its pause) in which the compilers took less than this share of the process's CPU ends the load. */
  static final double SETTLED_SHARE = 0.10;
  /** At least this many rounds: the first ones only start the compilers. */
  static final int MIN_ROUNDS = 3;
  /** The load stops after this long even if the compilers are still busy (a very slow or busy machine). */
  static final long MAX_NANOS = TimeUnit.SECONDS.toNanos(12);
  /** The longest pause after a round. */
  static final long DRAIN_NANOS = TimeUnit.MILLISECONDS.toNanos(1_500);
  /** The pause looks at the compilers this often; idle means they used at most one clock tick in it. */
  private static final long DRAIN_STEP_MILLIS = 100;
  private static final int BODY_BYTES = 100;
  private static final long STALL_MILLIS = 5_000;
  /** Bursts of {@link RehearsalMix} at the end of every round that drains no deep backlog: about 12 commands each. */
  static final int MIX_BURSTS = 400;

  /**
   * One round: producers with consumers (reserves that wait, deletes), puts from many connections
   * and from one, pipelined puts (several commands per read), and a drain of a backlog (reserves
   * that find a job at once, deletes). Counted puts, so that a round takes less time as the code
   * gets faster; the put cases delete their jobs afterwards.
   */
  private static final List<CaseSpec> ROUND = round(6_000);

  /**
   * The second and third rounds drain a backlog deep enough to take the job store's growth paths: a
   * ready heap past its first block of {@code SlotHeap.BLOCK_SLOTS} slots, an id index that makes
   * pages and thins them out as the drain passes (their last ids moved to its table), several pages
   * of records and of bodies, and
   * all of it given back. Small rounds never get there, so the optimising compiler left those
   * branches out as never taken, and a fresh server's first real backlog made it throw that code
   * away and compile again on the clients' time (measured, first drain of 200,000 jobs c=4 on a
   * fresh server: 40 uncommon traps in the id index, {@code ItemPool} and {@code SlotHeap},
   * 1.5 s of the compiler's CPU, p99.9 22-26x beanstalkd's; one deep round of 80,000 jobs left
   * 0.2 s of compiling and the same p99.9; two of 100,000 left 0.1 s and 1.05-3.5x). A branch taken
   * once stays in the profile the compiler reads, so later rounds stay small.
   */
  static final int FIRST_DEEP_ROUND = 1;
  static final int DEEP_ROUNDS = 2;
  static final long DEEP_JOBS = 100_000;
  private static final List<CaseSpec> DEEP_ROUND = round(DEEP_JOBS);

  /** One round of load and the pause after it. */
  record Round(long jobs, long mixCommands, long loadNanos, long mixNanos, long pauseNanos, double compilerShare) {}

  /** What the load did, round by round; no rounds when it was skipped. */
  record Outcome(List<Round> rounds, long nanos) {
    static final Outcome SKIPPED = new Outcome(List.of(), 0);

    long jobs() {
      return rounds.stream().mapToLong(Round::jobs).sum();
    }

    long mixCommands() {
      return rounds.stream().mapToLong(Round::mixCommands).sum();
    }

    /** For the start-up log: per round, jobs/s under load, the pause, and the compilers' share. */
    String describe() {
      if (rounds.isEmpty()) {
        return "no load (no optimising compiler in this JVM to wait for)";
      }
      StringBuilder text = new StringBuilder();
      for (Round r : rounds) {
        text.append(text.length() == 0 ? "" : ", ")
            .append(Math.round(r.jobs() * 1e6 / Math.max(1, r.loadNanos()))).append("k/s+mix ")
            .append(TimeUnit.NANOSECONDS.toMillis(r.mixNanos())).append("ms+")
            .append(TimeUnit.NANOSECONDS.toMillis(r.pauseNanos())).append("ms:")
            .append(Math.round(r.compilerShare() * 100)).append('%');
      }
      return String.format(Locale.ROOT, "then %,d jobs under load and %,d varied commands in %d rounds, %d ms"
          + " (per round: jobs/s, the mix, pause for the compilers, their share of the CPU: %s)", jobs(), mixCommands(),
          rounds.size(), TimeUnit.NANOSECONDS.toMillis(nanos), text);
    }
  }

  private RehearsalLoad() {}

  /**
   * Whether this JVM has an optimising compiler to wait for: not under -Xint, nor with
   * {@code -XX:TieredStopAtLevel} below 4 (C1 only, as the tests' child JVMs run), where the
   * command script already gets every path compiled.
   */
  static boolean hasOptimisingCompiler() {
    try {
      HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      boolean isCompiling = Boolean.parseBoolean(hotspot.getVMOption("UseCompiler").getValue());
      boolean isTiered = Boolean.parseBoolean(hotspot.getVMOption("TieredCompilation").getValue());
      int stopAtLevel = Integer.parseInt(hotspot.getVMOption("TieredStopAtLevel").getValue());
      return isCompiling && (!isTiered || stopAtLevel >= 4);
    } catch (RuntimeException | LinkageError notHotSpot) {
      return true;
    }
  }

  /** A round's cases, its drain of {@code drainJobs} jobs last. */
  private static List<CaseSpec> round(long drainJobs) {
    return List.of(
        new CaseSpec(CaseSpec.Mode.CYCLE, 10, 1, BODY_BYTES, 0, 200, 0, 0, 0, 0, 0),
        put(50, 1, 6_000),
        put(1, 1, 1_000),
        put(4, 16, 6_000),
        new CaseSpec(CaseSpec.Mode.DRAIN, 4, 1, BODY_BYTES, 0, -1, 0, drainJobs, 0, 0, 0));
  }

  /** The cases of round {@code index} (from 0). */
  static List<CaseSpec> casesOf(int index) {
    return isDeep(index) ? DEEP_ROUND : ROUND;
  }

  /** Whether round {@code index} (from 0) drains a deep backlog. */
  static boolean isDeep(int index) {
    return index >= FIRST_DEEP_ROUND && index < FIRST_DEEP_ROUND + DEEP_ROUNDS;
  }

  private static CaseSpec put(int connections, int pipeline, long count) {
    return new CaseSpec(CaseSpec.Mode.PUT, connections, pipeline, BODY_BYTES, 0, -1, count, 0, 0, 0, 0);
  }

  /**
   * Runs rounds of load, each on a new throwaway server from {@code stages}, until the compilers
   * settle or {@code maxNanos} have passed; blocking, so on a worker thread. Local ports of its
   * connections go into {@code ownPorts} before they connect.
   *
   * @throws IllegalStateException when a server answered something unexpected
   */
  static Outcome play(RehearsalStage stages, Set<Integer> ownPorts, long maxNanos) throws Exception {
    CompilerShare compilers = new CompilerShare();
    List<Round> rounds = new ArrayList<>();
    long startNanos = System.nanoTime();
    while (true) {
      long compilerBefore = compilers.compilerNanos();
      long processBefore = compilers.processNanos();
      long roundStartNanos = System.nanoTime();
      long jobs = 0;
      long mixCommands;
      long mixNanos;
      try (RehearsalStage.Open stage = stages.open(!isDeep(rounds.size()))) {
        ServerAddress server = new ServerAddress(stage.host(), stage.port());
        for (CaseSpec spec : casesOf(rounds.size())) {
          CaseResult result = Bench.run(spec, server, STALL_MILLIS, ownPorts::add);
          if (result.errors() > 0) {
            throw new IllegalStateException("warm-up load: " + result.label() + ": " + result.errorSamples());
          }
          jobs += result.ops();
        }
        // After the load, and not in the deep rounds: the next round's load then runs on code compiled
        // again with the mix's branches, and no round ends with the compilers redoing what its mix
        // threw away when the port may open next (measured, the mix in every round: put c=50 in the
        // first seconds 1.00x beanstalkd, against 1.15x without; its p99 3.8x, against 1.5x). Run
        // before the load, it left the process a larger peak and the stream no less growth.
        long mixStartNanos = System.nanoTime();
        mixCommands = isDeep(rounds.size()) ? 0 : RehearsalMix.play(stage.host(), stage.port(), ownPorts,
            ServerConfig.DEFAULT_MAX_JOB_SIZE, MIX_BURSTS, rounds.size());
        mixNanos = System.nanoTime() - mixStartNanos;
      }
      long loadNanos = System.nanoTime() - roundStartNanos;
      long pauseNanos = pauseWhileCompiling(compilers, Math.min(DRAIN_NANOS,
          Math.max(0, maxNanos - (System.nanoTime() - startNanos))));
      long process = compilers.processNanos() - processBefore;
      double share = process <= 0 ? 0
          : Math.min(1.0, Math.max(0, compilers.compilerNanos() - compilerBefore) / (double) process);
      rounds.add(new Round(jobs, mixCommands, loadNanos - mixNanos, mixNanos, pauseNanos, share));
      long elapsedNanos = System.nanoTime() - startNanos;
      if ((rounds.size() >= MIN_ROUNDS && share < SETTLED_SHARE) || elapsedNanos >= maxNanos) {
        return new Outcome(rounds, elapsedNanos);
      }
    }
  }

  /** Sleeps until the compilers were idle for a step, or for {@code maxNanos}; returns how long. */
  private static long pauseWhileCompiling(CompilerShare compilers, long maxNanos) {
    long startNanos = System.nanoTime();
    long before = compilers.compilerNanos();
    while (System.nanoTime() - startNanos < maxNanos) {
      try {
        Thread.sleep(DRAIN_STEP_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      long now = compilers.compilerNanos();
      if (now - before <= compilers.resolutionNanos()) {
        break;
      }
      before = now;
    }
    return System.nanoTime() - startNanos;
  }
}
