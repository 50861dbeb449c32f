package io.github.vertxbeanstalkd;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A main class of ours in a separate JVM, on the test's own class path (so it works before the
 * jar is built), with its output in a log file. {@link #kill()} is SIGKILL; every child still
 * running when the test JVM exits is killed too, so none outlives an aborted run.
 */
public final class ChildJvm implements AutoCloseable {
  private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(Process::destroyForcibly)));
  }

  private final Process process;
  private final Path logFile;

  private ChildJvm(Process process, Path logFile) {
    this.process = process;
    this.logFile = logFile;
  }

  /**
   * Starts {@code mainClass} with {@code jvmOptions} (besides a small heap, C1 only and the serial
   * collector: a fast start and little CPU on a shared machine; and native access, as conf/jvm.options
   * has it) and {@code args}.
   */
  public static ChildJvm start(List<String> jvmOptions, String mainClass, List<String> args, Path logFile)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(java());
    command.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "--enable-native-access=ALL-UNNAMED"));
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
    command.addAll(args);
    return launch(command, logFile);
  }

  /**
   * Starts {@code java @jvmOptionsFile -jar jar args}, the command a user types, with nothing
   * added.
   */
  public static ChildJvm startJar(Path jvmOptionsFile, Path jar, List<String> args, Path logFile) throws IOException {
    List<String> command = new ArrayList<>(List.of(java(), "@" + jvmOptionsFile, "-jar", jar.toString()));
    command.addAll(args);
    return launch(command, logFile);
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static ChildJvm launch(List<String> command, Path logFile) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().keySet().removeIf(k -> k.startsWith("BEANSTALKD_"));
    pb.redirectErrorStream(true).redirectOutput(logFile.toFile());
    Process p = pb.start();
    RUNNING.add(p);
    return new ChildJvm(p, logFile);
  }

  /**
   * Waits until the log matches {@code pattern} and returns the match.
   *
   * @throws IllegalStateException with the end of the log when the process exits or time runs out
   */
  public Matcher await(Pattern pattern, long timeoutMillis) throws InterruptedException {
    java.util.concurrent.atomic.AtomicReference<Matcher> found = new java.util.concurrent.atomic.AtomicReference<>();
    boolean isFound = Await.eventually(timeoutMillis, () -> {
      Matcher m = pattern.matcher(log(Integer.MAX_VALUE));
      if (m.find()) {
        found.set(m);
        return true;
      }
      if (!process.isAlive()) {
        RUNNING.remove(process);
        throw new IllegalStateException("the child exited with " + process.exitValue() + " before '" + pattern
            + "':\n" + log());
      }
      return false;
    });
    if (isFound) {
      return found.get();
    }
    kill();
    throw new IllegalStateException("no '" + pattern + "' within " + timeoutMillis + " ms:\n" + log());
  }

  /** Waits for the process to exit on its own and returns its status; kills it after {@code timeoutMillis}. */
  public int awaitExit(long timeoutMillis) throws InterruptedException {
    if (!process.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
      kill();
      throw new IllegalStateException("still running after " + timeoutMillis + " ms:\n" + log());
    }
    RUNNING.remove(process);
    return process.exitValue();
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** The end of the log, for failure messages. */
  public String log() {
    return log(4000);
  }

  /** SIGKILL, as a crash: no shutdown hook runs. Returns once the process is gone. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("process " + process.pid() + " survived SIGKILL for 30 s");
    }
    RUNNING.remove(process);
  }

  /** SIGTERM; returns the exit status, or fails if the process is still running after {@code millis}. */
  public int terminate(long millis) throws InterruptedException {
    process.destroy();
    if (!process.waitFor(millis, TimeUnit.MILLISECONDS)) {
      throw new IllegalStateException("process " + process.pid() + " still running " + millis + " ms after SIGTERM:\n"
          + log());
    }
    RUNNING.remove(process);
    return process.exitValue();
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      kill();
    }
  }

  /** The last {@code lastChars} characters of the log. */
  public String log(int lastChars) {
    try {
      String all = Files.readString(logFile, StandardCharsets.ISO_8859_1);
      return all.length() > lastChars ? "..." + all.substring(all.length() - lastChars) : all;
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }
}
