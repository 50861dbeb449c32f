package io.github.vertxbeanstalkd.engine;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/** This process's user and system CPU time, for the {@code rusage-*} stats. */
final class ProcessCpu {
  /** Linux reports /proc times in clock ticks of 1/100 s (USER_HZ) on every common platform. */
  private static final long MICROS_PER_TICK = 10_000;
  /**
   * A reading is reused for one tick, within which it cannot change: a client pipelining a thousand
   * `stats` made the engine read /proc a thousand times per batch (measured: 64 such clients that
   * did not read their replies kept the event loop busy for 30 s on a loaded machine).
   */
  private static final long REUSE_NANOS = MICROS_PER_TICK * 1000;

  private record Reading(long atNanos, long[] micros) {}

  /** Shared by every engine in the process, each on its own thread: replaced whole, never changed. */
  private static volatile Reading last = new Reading(System.nanoTime() - 2 * REUSE_NANOS, new long[2]);

  private ProcessCpu() {}

  /** {user, system} in microseconds; the caller must not change the array. */
  static long[] micros() {
    long now = System.nanoTime();
    Reading r = last;
    if (now - r.atNanos() < REUSE_NANOS) {
      return r.micros();
    }
    long[] micros = read();
    last = new Reading(now, micros);
    return micros;
  }

  private static long[] read() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"));
      // Fields after the parenthesised command name, which may itself contain spaces.
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return new long[] {Long.parseLong(f[11]) * MICROS_PER_TICK, Long.parseLong(f[12]) * MICROS_PER_TICK};
    } catch (IOException | RuntimeException notLinux) {
      var os = ManagementFactory.getOperatingSystemMXBean();
      long nanos = os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : 0;
      return new long[] {Math.max(0, nanos) / 1000, 0};
    }
  }
}
