package io.github.vertxbeanstalkd.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A process's resident memory, from the VmRSS line of /proc/PID/status (Linux). */
final class ProcessRss {
  private ProcessRss() {}

  /** Resident set size in KiB, or -1 if the process or the line cannot be read. */
  static long kibibytes(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.substring(6).replace("kB", "").trim());
        }
      }
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
    return -1;
  }
}
