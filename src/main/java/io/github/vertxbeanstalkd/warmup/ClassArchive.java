package io.github.vertxbeanstalkd.warmup;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Builds the server's class-data-sharing archive (AppCDS, a JDK 17 dynamic archive): starts the
 * packaged server once as {@code conf/jvm.options} starts it, with its warm-up, lets it open its
 * port and stops it with SIGTERM; the JVM writes every class it loaded, already parsed and
 * verified, to the archive as it exits. A server started with
 * {@code -XX:SharedArchiveFile=ARCHIVE} (conf/jvm.options names {@code target/vertx-beanstalkd.jsa})
 * then maps those classes instead of loading them from the jar.
 *
 * <p>{@code mvn package} runs it (exec-maven-plugin, after the shade plugin). Usage:
 * {@code java -cp JAR io.github.vertxbeanstalkd.warmup.ClassArchive JAR ARCHIVE [JVM_OPTIONS_FILE]},
 * from the directory the server will be started from: the archive holds the jar's path as given
 * and its size and time, and the JVM ignores it (with a one-line warning) for any other jar.
 * Exits 0 having written the archive, or having skipped it on a JDK without a base archive; 1 when
 * the training start failed.
 */
public final class ClassArchive {
  /** The training start opens its ports on free ones and keeps jobs in memory. */
  private static final String TRAINING_CONFIG =
      "{\"host\":\"127.0.0.1\",\"port\":0,\"http\":{\"host\":\"127.0.0.1\",\"port\":0}}";
  private static final long START_TIMEOUT_SECONDS = 180;
  private static final long STOP_TIMEOUT_SECONDS = 60;

  private ClassArchive() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    if (args.length < 2 || args.length > 3) {
      System.err.println("usage: java -cp JAR " + ClassArchive.class.getName() + " JAR ARCHIVE [JVM_OPTIONS_FILE]");
      System.exit(2);
    }
    System.exit(build(Path.of(args[0]), Path.of(args[1]), args.length == 3 ? Path.of(args[2]) : null));
  }

  static int build(Path jar, Path archive, Path jvmOptions) throws IOException, InterruptedException {
    Path javaHome = Path.of(System.getProperty("java.home"));
    // A dynamic archive sits on top of the JDK's own (base) archive; not every JDK build ships one.
    Path baseArchive = javaHome.resolve("lib").resolve("server").resolve("classes.jsa");
    if (!Files.isRegularFile(baseArchive)) {
      System.out.println("class-data sharing: skipped, this JDK has no base archive (" + baseArchive + ")");
      return 0;
    }
    Files.deleteIfExists(archive);
    List<String> command = new ArrayList<>();
    command.add(javaHome.resolve("bin").resolve("java").toString());
    if (jvmOptions != null && Files.isRegularFile(jvmOptions)) {
      command.add("@" + jvmOptions);
    }
    // After the options file, so that these win: the base archive instead of the one being built.
    command.add("-XX:SharedArchiveFile=" + baseArchive);
    command.add("-XX:ArchiveClassesAtExit=" + archive);
    // Classes CDS cannot take (old class-file versions, JFR's) are listed one warning each.
    command.add("-Xlog:cds=off");
    command.add("-Xlog:cds+dynamic=off");
    command.addAll(List.of("-jar", jar.toString(), "-conf", TRAINING_CONFIG));
    long startNanos = System.nanoTime();
    Process server = new ProcessBuilder(command).redirectErrorStream(true).start();
    String warmUp = awaitListening(server);
    if (warmUp == null) {
      server.destroyForcibly();
      System.err.println("class-data sharing: the training start did not open its port: " + command);
      return 1;
    }
    // SIGTERM: the graceful shutdown, then the JVM's exit, which writes the archive.
    server.destroy();
    if (!server.waitFor(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      server.destroyForcibly();
      System.err.println("class-data sharing: the training start did not stop within "
          + STOP_TIMEOUT_SECONDS + " s of SIGTERM");
      return 1;
    }
    // 0 from the server's graceful shutdown; 143 from the JVM's own SIGTERM handling, which writes
    // the archive all the same.
    if ((server.exitValue() != 0 && server.exitValue() != 143) || !Files.isRegularFile(archive)) {
      System.err.println("class-data sharing: the training start exited with " + server.exitValue()
          + (Files.isRegularFile(archive) ? "" : " and wrote no archive"));
      return 1;
    }
    System.out.printf("class-data sharing: %s, %d MiB, from a training start of %d ms (%s)%n", archive,
        Files.size(archive) >> 20, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos), warmUp);
    return 0;
  }

  /** Reads the server's log until it listens; returns its warm-up line, or null if it never listened. */
  private static String awaitListening(Process server) throws InterruptedException {
    AtomicReference<String> warmUp = new AtomicReference<>("");
    CountDownLatch listening = new CountDownLatch(1);
    // Reads to the end, so that the server never blocks on a full pipe while it shuts down.
    Thread reader = new Thread(() -> {
      try (BufferedReader log = new BufferedReader(
          new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = log.readLine()) != null; ) {
          if (line.contains("warm-up:")) {
            warmUp.set(line.substring(line.indexOf("warm-up:")));
          }
          if (line.contains(" listening on ")) {
            listening.countDown();
          }
        }
      } catch (IOException e) {
        // The process ended: whoever waits sees that.
      }
    }, "class-archive-log");
    reader.setDaemon(true);
    reader.start();
    long deadlineNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
    while (!listening.await(100, TimeUnit.MILLISECONDS)) {
      if (!server.isAlive() || System.nanoTime() > deadlineNanos) {
        return null;
      }
    }
    return warmUp.get();
  }
}
