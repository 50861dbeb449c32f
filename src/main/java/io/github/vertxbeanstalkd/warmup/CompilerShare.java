package io.github.vertxbeanstalkd.warmup;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How much work the JIT compilers are doing: the CPU time of this process and of its compiler
 * threads. Measured in CPU time rather than wall time, so that it tells what the rehearsal waits
 * for (the compile queue running dry) whatever else runs on the machine: another process's load
 * slows the compilers and the rest of this process alike.
 *
 * <p>On Linux it reads {@code /proc/self/task} (HotSpot's compiler threads are named
 * {@code C1 CompilerThread<n>} and {@code C2 CompilerThread<n>}), in ticks of 10 ms. Elsewhere it
 * falls back to the compilation MXBean's elapsed compile time and wall time, which a busy machine
 * inflates (a compiler waiting for a CPU is still compiling): the rehearsal then runs to its cap
 * more often.
 */
final class CompilerShare {
  private static final Path TASKS = Path.of("/proc/self/task");
  private static final Path PROCESS_STAT = Path.of("/proc/self/stat");
  /** USER_HZ: /proc counts CPU time in these ticks, 100 a second on every Linux build that matters. */
  private static final long NANOS_PER_TICK = 10_000_000L;

  private final boolean isProcfs;
  private final CompilationMXBean compilation = ManagementFactory.getCompilationMXBean();

  CompilerShare() {
    boolean readable;
    try {
      readable = ticksOf(PROCESS_STAT) >= 0 && compilerTicks() >= 0;
    } catch (IOException | RuntimeException e) {
      readable = false;
    }
    isProcfs = readable;
  }

  /** The compiler threads' CPU time so far (elsewhere than Linux: their elapsed compile time). */
  long compilerNanos() {
    if (isProcfs) {
      try {
        return compilerTicks() * NANOS_PER_TICK;
      } catch (IOException | RuntimeException e) {
        // Unreadable for a moment (a thread ending as we look): count it as busy, never as idle.
        return Long.MAX_VALUE / 4;
      }
    }
    return compilation != null && compilation.isCompilationTimeMonitoringSupported()
        ? compilation.getTotalCompilationTime() * 1_000_000L : 0;
  }

  /** The process's CPU time so far (elsewhere than Linux: wall time). */
  long processNanos() {
    if (isProcfs) {
      try {
        return ticksOf(PROCESS_STAT) * NANOS_PER_TICK;
      } catch (IOException | RuntimeException e) {
        return System.nanoTime();
      }
    }
    return System.nanoTime();
  }

  /** One tick of the clock: a reading cannot tell apart two values closer than this. */
  long resolutionNanos() {
    return isProcfs ? NANOS_PER_TICK : 1_000_000L;
  }

  private static long compilerTicks() throws IOException {
    long ticks = 0;
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
      for (Path task : tasks) {
        try {
          String name = Files.readString(task.resolve("comm")).trim();
          if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
            ticks += ticksOf(task.resolve("stat"));
          }
        } catch (IOException ended) {
          // The thread ended while we looked: its time is gone with it.
        }
      }
    }
    return ticks;
  }

  /** utime + stime of a /proc stat file: the fields after the command name in parentheses. */
  private static long ticksOf(Path stat) throws IOException {
    String text = Files.readString(stat);
    String[] fields = text.substring(text.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }
}
