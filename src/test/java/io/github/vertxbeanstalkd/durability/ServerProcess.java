package io.github.vertxbeanstalkd.durability;

import io.github.vertxbeanstalkd.ChildJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The real server in a separate JVM on port 0, with a binlog; the bound port is read from its
 * log. {@link #kill()} is SIGKILL.
 */
final class ServerProcess implements AutoCloseable {
  private static final Pattern LISTENING = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");
  private static final long START_MILLIS = 60_000;

  private final ChildJvm jvm;
  private final int port;

  private ServerProcess(ChildJvm jvm, int port) {
    this.jvm = jvm;
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
    String conf = "{\"port\":0,\"http\":{\"port\":0},\"binlog\":{\"dir\":\"" + dir.toAbsolutePath() + "\",\"fsync\":" + fsyncJson
        + ",\"segmentSize\":" + segmentSizeBytes + "}}";
    return start(List.of(), conf, logFile);
  }

  /** Starts a server with {@code conf} (JSON) and {@code jvmOptions}, and waits until it listens. */
  static ServerProcess start(List<String> jvmOptions, String conf, Path logFile) throws IOException, InterruptedException {
    ChildJvm jvm = ChildJvm.start(jvmOptions, "io.github.vertxbeanstalkd.Main",
        List.of("io.github.vertxbeanstalkd.MainVerticle", "-conf", conf), logFile);
    int port = Integer.parseInt(jvm.await(LISTENING, START_MILLIS).group(1));
    return new ServerProcess(jvm, port);
  }

  int port() {
    return port;
  }

  long pid() {
    return jvm.pid();
  }

  String log() {
    return jvm.log();
  }

  /** SIGKILL, as a crash: no shutdown hook, no final flush. Returns once the process is gone. */
  void kill() throws InterruptedException {
    jvm.kill();
  }

  @Override
  public void close() throws InterruptedException {
    jvm.close();
  }
}
