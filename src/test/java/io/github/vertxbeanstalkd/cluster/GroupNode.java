package io.github.vertxbeanstalkd.cluster;

import io.github.vertxbeanstalkd.ChildJvm;
import io.github.vertxbeanstalkd.LoopbackPorts;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * One member of a replication group (shared/spec/REPLICATION.md) in a child JVM through the real
 * launcher, with TCP and HTTP ports and a binlog directory fixed at creation, so that a restart
 * comes back as the same node. Faults are real signals: SIGKILL, SIGSTOP and SIGCONT by pid.
 */
final class GroupNode implements AutoCloseable {
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();
  private static final Duration HEALTHZ_REQUEST = Duration.ofMillis(1_000);

  private final String name;
  private final int port;
  private final int httpPort;
  private final Path binlogDir;
  private final Path clusterXml;
  private final Path logDir;
  private final JsonObject replication;
  private ChildJvm jvm;
  private int starts;
  private boolean isStopped;

  GroupNode(String name, Path dir, Path clusterXml, JsonObject replication) {
    this.name = name;
    this.port = LoopbackPorts.unused();
    this.httpPort = LoopbackPorts.unused();
    this.binlogDir = dir.resolve(name);
    this.clusterXml = clusterXml;
    // -Dbeanstalkd.clusterLogs=DIR keeps every node's log there, to read after a failed run.
    String keep = System.getProperty("beanstalkd.clusterLogs");
    this.logDir = keep == null ? dir : Path.of(keep);
    this.replication = replication;
  }

  /** Starts (or starts again) the node's JVM; returns at once. */
  void start() throws IOException {
    Files.createDirectories(binlogDir);
    JsonObject conf = new JsonObject().put("port", port).put("http", new JsonObject().put("port", httpPort))
        .put("binlog", new JsonObject().put("dir", binlogDir.toAbsolutePath().toString()))
        .put("replication", replication.copy().put("enabled", true));
    starts++;
    jvm = ChildJvm.start(List.of("-Dvertx.hazelcast.config=" + clusterXml.toAbsolutePath()),
        "io.github.vertxbeanstalkd.Main",
        List.of("io.github.vertxbeanstalkd.MainVerticle", "-cluster", "-cluster-host", "127.0.0.1", "-conf",
            conf.encode()), logFile());
    isStopped = false;
  }

  String name() {
    return name;
  }

  int port() {
    return port;
  }

  long pid() {
    return jvm.pid();
  }

  boolean isAlive() {
    return jvm != null && jvm.isAlive();
  }

  boolean isStopped() {
    return isStopped;
  }

  String log() {
    return jvm == null ? "(not started)" : jvm.log();
  }

  /** Whether this start's whole log has {@code text}: a start-up error hides under later stack traces. */
  boolean logContains(String text) {
    try {
      return Files.readString(logFile(), StandardCharsets.ISO_8859_1).contains(text);
    } catch (IOException e) {
      return false;
    }
  }

  /** How many times this start's whole log has {@code text}. */
  int logCount(String text) {
    try {
      String log = Files.readString(logFile(), StandardCharsets.ISO_8859_1);
      int n = 0;
      for (int at = log.indexOf(text); at >= 0; at = log.indexOf(text, at + 1)) {
        n++;
      }
      return n;
    } catch (IOException e) {
      return 0;
    }
  }

  private Path logFile() {
    return logDir.resolve(name + "-" + starts + ".log");
  }

  /**
   * The node's {@code /healthz} document, or empty when it does not answer (not listening yet,
   * stopped, dead) within a second.
   */
  Optional<JsonObject> healthz() {
    if (!isAlive() || isStopped) {
      return Optional.empty();
    }
    try {
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/healthz"))
          .timeout(HEALTHZ_REQUEST).build(), HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 ? Optional.of(new JsonObject(r.body())) : Optional.empty();
    } catch (IOException | DecodeException notYet) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /** Answers {@code path} of the node's HTTP port with a JSON POST of {} (the admin API: /api/drain, /api/undrain). */
  int post(String path) throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + path))
        .timeout(HEALTHZ_REQUEST).header("content-type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  /** The status of {@code /readyz} and its JSON, or empty when the node does not answer. */
  Optional<HttpResponse<String>> readyz() {
    if (!isAlive() || isStopped) {
      return Optional.empty();
    }
    try {
      return Optional.of(HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/readyz"))
          .timeout(HEALTHZ_REQUEST).build(), HttpResponse.BodyHandlers.ofString()));
    } catch (IOException notYet) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /** The node's own engine's stats ({@code /api/stats}, on a standby too), or empty when it does not answer. */
  Optional<JsonObject> apiStats() {
    if (!isAlive() || isStopped) {
      return Optional.empty();
    }
    try {
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/api/stats"))
          .timeout(HEALTHZ_REQUEST).build(), HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 ? Optional.of(new JsonObject(r.body()).getJsonObject("stats")) : Optional.empty();
    } catch (IOException | DecodeException notYet) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /**
   * The value of the sample {@code series} (its name and labels exactly) on the node's
   * {@code /metrics}, or empty when the node does not answer or has no such sample.
   */
  Optional<Double> metric(String series) {
    if (!isAlive() || isStopped) {
      return Optional.empty();
    }
    try {
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/metrics"))
          .timeout(HEALTHZ_REQUEST).build(), HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        return Optional.empty();
      }
      for (String line : r.body().split("\n")) {
        if (line.startsWith(series + " ")) {
          return Optional.of(Double.parseDouble(line.substring(series.length() + 1).trim()));
        }
      }
      return Optional.empty();
    } catch (IOException notYet) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /** The role {@code /healthz} reports, or null when it does not answer or says none. */
  String role() {
    return healthz().map(h -> h.getString("role")).orElse(null);
  }

  /** Whether the TCP port serves the queue now: {@code list-tube-used} answers {@code USING}. */
  boolean servesQueue() {
    if (!isAlive() || isStopped) {
      return false;
    }
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 500);
      s.setSoTimeout(1_000);
      s.getOutputStream().write("list-tube-used\r\n".getBytes(StandardCharsets.US_ASCII));
      byte[] reply = new byte[64];
      int n = s.getInputStream().read(reply);
      return n > 0 && new String(reply, 0, n, StandardCharsets.US_ASCII).startsWith("USING ");
    } catch (IOException notServing) {
      return false;
    }
  }

  /** SIGKILL, as a crash; returns once the process is gone. */
  void kill() throws InterruptedException {
    jvm.kill();
    // A stopped process killed is gone, not stopped: nothing to resume.
    isStopped = false;
  }

  /** SIGSTOP: the process is frozen, as in a long pause, with its sockets still open. */
  void stop() throws IOException, InterruptedException {
    signal("STOP");
    isStopped = true;
  }

  /** SIGCONT after {@link #stop()}. */
  void resume() throws IOException, InterruptedException {
    signal("CONT");
    isStopped = false;
  }

  private void signal(String signal) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(jvm.pid())).inheritIO().start();
    if (kill.waitFor() != 0) {
      throw new IllegalStateException("kill -" + signal + " " + jvm.pid() + " failed");
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (jvm == null) {
      return;
    }
    if (isStopped) {
      try {
        resume();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    jvm.close();
  }

  @Override
  public String toString() {
    return name + " (pid " + (jvm == null ? "-" : jvm.pid()) + ", port " + port + ", http " + httpPort + ")";
  }
}
