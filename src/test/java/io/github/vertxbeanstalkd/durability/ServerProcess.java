package io.github.vertxbeanstalkd.durability;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real server in a separate JVM (the test's own classpath, so it works before the jar is
 * built), on port 0; the bound port is read from its log. {@link #kill()} is SIGKILL.
 */
final class ServerProcess implements AutoCloseable {
  private static final Pattern LISTENING = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");
  private static final long START_MILLIS = 60_000;
  /** Servers still running; killed when the test JVM exits, so that none outlives an aborted run. */
  private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(Process::destroyForcibly)));
  }

  private final Process process;
  private final Path logFile;
  private final int port;

  private ServerProcess(Process process, Path logFile, int port) {
    this.process = process;
    this.logFile = logFile;
    this.port = port;
  }

  /**
   * Starts a server on {@code dir} and waits until it listens.
   *
   * @param fsync the config value: "always", "never" or milliseconds
   * @throws IllegalStateException with the server's log when it exits instead
   */
  static ServerProcess start(Path dir, String fsync, long segmentSizeBytes, Path logFile)
      throws IOException, InterruptedException {
    String fsyncJson = fsync.matches("\\d+") ? fsync : '"' + fsync + '"';
    String conf = "{\"port\":0,\"binlog\":{\"dir\":\"" + dir.toAbsolutePath() + "\",\"fsync\":" + fsyncJson
        + ",\"segmentSize\":" + segmentSizeBytes + "}}";
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    // C1 only and the serial collector: a fast start and little CPU on a shared machine.
    ProcessBuilder pb = new ProcessBuilder(List.of(java, "-Xmx256m", "-XX:+UseSerialGC",
        "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
        "io.github.vertxbeanstalkd.Main", "io.github.vertxbeanstalkd.MainVerticle", "-conf", conf));
    pb.environment().keySet().removeIf(k -> k.startsWith("BEANSTALKD_"));
    pb.redirectErrorStream(true).redirectOutput(logFile.toFile());
    Process p = pb.start();
    RUNNING.add(p);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_MILLIS);
    while (System.nanoTime() < deadline) {
      Matcher m = LISTENING.matcher(Files.readString(logFile, StandardCharsets.ISO_8859_1));
      if (m.find()) {
        return new ServerProcess(p, logFile, Integer.parseInt(m.group(1)));
      }
      if (!p.isAlive()) {
        RUNNING.remove(p);
        throw new IllegalStateException("the server exited with " + p.exitValue() + ":\n" + log(logFile));
      }
      Thread.sleep(20);
    }
    p.destroyForcibly().waitFor();
    RUNNING.remove(p);
    throw new IllegalStateException("the server did not listen within " + START_MILLIS + " ms:\n" + log(logFile));
  }

  int port() {
    return port;
  }

  long pid() {
    return process.pid();
  }

  String log() {
    return log(logFile);
  }

  /** SIGKILL, as a crash: no shutdown hook, no final flush. Returns once the process is gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("server " + process.pid() + " survived SIGKILL for 30 s");
    }
    RUNNING.remove(process);
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      kill();
    }
  }

  private static String log(Path file) {
    try {
      String all = Files.readString(file, StandardCharsets.ISO_8859_1);
      return all.length() > 4000 ? "..." + all.substring(all.length() - 4000) : all;
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }
}
