package io.github.vertxbeanstalkd.engine;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/** This process's user and system CPU time, for the {@code rusage-*} stats. */
final class ProcessCpu {
  /** Linux reports /proc times in clock ticks of 1/100 s (USER_HZ) on every common platform. */
  private static final long MICROS_PER_TICK = 10_000;

  private ProcessCpu() {}

  /** {user, system} in microseconds. */
  static long[] micros() {
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
