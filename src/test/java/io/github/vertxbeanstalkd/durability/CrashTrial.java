package io.github.vertxbeanstalkd.durability;

import io.github.vertxbeanstalkd.durability.JobLedger.Acknowledged;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Random;

/**
 * One trial: a real server process on a fresh directory, then several crash cycles of workload,
 * SIGKILL at a random moment, restart on the same directory, and a check against the ledger.
 */
final class CrashTrial {
  /** How a trial runs; {@code fsync} is the config value ("always", "never" or milliseconds). */
  record Settings(String fsync, int cycles, long segmentSizeBytes, int producers, int consumers,
      long minRunMillis, long maxRunMillis) {}

  /** What a trial did and found. */
  record Result(CrashTally tally, long puts, long deletes, long releases, long buries, long kicks,
      long elapsedMillis) {}

  private final Path dir;
  private final Settings settings;
  private final String name;
  private final Random random;
  private final CrashTally tally = new CrashTally();
  private final JobLedger ledger = new JobLedger(tally);
  private int starts;

  private CrashTrial(Path dir, Settings settings, String name, long seed) {
    this.dir = dir;
    this.settings = settings;
    this.name = name;
    this.random = new Random(seed);
  }

  static Result run(Path dir, Settings settings, String name, long seed) throws IOException, InterruptedException {
    return new CrashTrial(dir, settings, name, seed).run();
  }

  private Result run() throws IOException, InterruptedException {
    long startNanos = System.nanoTime();
    ServerProcess server = start();
    long crashMillis = 0;
    try {
      for (int cycle = 1; cycle <= settings.cycles() && server != null; cycle++) {
        LedgerCheck.run(server.port(), ledger, crashMillis, "P" + name + "." + cycle);
        CrashClients clients = new CrashClients(server.port(), ledger, name + "C" + cycle, random.nextLong());
        clients.start(settings.producers(), settings.consumers());
        long span = settings.maxRunMillis() - settings.minRunMillis();
        // The crash comes at a random moment under load: the run's length is the thing drawn.
        Thread.sleep(settings.minRunMillis() + (span > 0 ? random.nextInt((int) span) : 0));
        clients.serverKilled();
        server.kill();
        crashMillis = System.currentTimeMillis();
        if (!clients.awaitEnd(30_000)) {
          tally.add(CrashTally.Kind.UNEXPECTED_REPLY, name + " cycle " + cycle + ": a client hung after the crash");
        }
        server = start();
      }
      if (server != null) {
        LedgerCheck.run(server.port(), ledger, crashMillis, "P" + name + ".end");
      }
    } finally {
      if (server != null) {
        server.close();
      }
    }
    return new Result(tally, ledger.acknowledged(Acknowledged.PUT), ledger.acknowledged(Acknowledged.DELETE),
        ledger.acknowledged(Acknowledged.RELEASE), ledger.acknowledged(Acknowledged.BURY),
        ledger.acknowledged(Acknowledged.KICK), (System.nanoTime() - startNanos) / 1_000_000);
  }

  /** A server on the trial's directory, or null (and counted) when it refuses to start. */
  private ServerProcess start() throws IOException, InterruptedException {
    Path log = dir.resolveSibling(dir.getFileName() + "-server-" + (++starts) + ".log");
    try {
      return ServerProcess.start(dir, settings.fsync(), settings.segmentSizeBytes(), log);
    } catch (IllegalStateException refused) {
      tally.add(CrashTally.Kind.START_REFUSED, name + ": " + refused.getMessage());
      return null;
    }
  }
}
