package io.github.vertxbeanstalkd.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.ChildJvm;
import io.github.vertxbeanstalkd.LoopbackPorts;
import io.github.vertxbeanstalkd.TestClient;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server as the launcher runs it, in a child JVM: Vert.x's own series beside the queue's on
 * /metrics, Prometheus options through --options, and SIGTERM: replies out, binlog flushed, exit 0.
 */
class LauncherMetricsAndShutdownTest {
  private static final Pattern LISTENING = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");
  private static final Pattern HTTP = Pattern.compile("HTTP \\(metrics, health, admin page\\) on http://127\\.0\\.0\\.1:(\\d+)/");
  private static final long START_MILLIS = 60_000;

  @TempDir
  Path dir;
  private ChildJvm server;

  @AfterEach
  void stop() throws InterruptedException {
    if (server != null) {
      server.close();
    }
  }

  private ChildJvm start(List<String> launcherArgs, String logName) throws Exception {
    String conf = "{\"port\":0,\"http\":{\"port\":0},\"binlog\":{\"dir\":\"" + dir.resolve("binlog")
        + "\",\"fsync\":\"never\"}}";
    List<String> args = new java.util.ArrayList<>(List.of("io.github.vertxbeanstalkd.MainVerticle", "-conf", conf));
    args.addAll(launcherArgs);
    return ChildJvm.start(List.of(), "io.github.vertxbeanstalkd.Main", args, dir.resolve(logName));
  }

  @Test
  void vertxSeriesTooThenSigtermFinishesRepliesFlushesTheBinlogAndExitsZero() throws Exception {
    int embeddedPort = LoopbackPorts.unused();
    // Prometheus options through --options, as the Vert.x docs show them (once a NoClassDefFoundError).
    server = start(List.of("--options", "{\"metricsOptions\":{\"enabled\":true,\"prometheusOptions\":{\"enabled\":true,"
        + "\"startEmbeddedServer\":true,\"embeddedServerOptions\":{\"host\":\"127.0.0.1\",\"port\":" + embeddedPort
        + "},\"embeddedServerEndpoint\":\"/vertx-metrics\"}}}"), "first.log");
    int port = Integer.parseInt(server.await(LISTENING, START_MILLIS).group(1));
    int httpPort = Integer.parseInt(server.await(HTTP, START_MILLIS).group(1));

    try (TestClient producer = TestClient.connect(port); TestClient waiter = TestClient.connect(port)) {
      for (int i = 1; i <= 3; i++) {
        producer.send("put 0 0 60 3", "job").expect("INSERTED " + i);
      }
      waiter.send("watch empty").expect("WATCHING 2");
      waiter.send("ignore default").expect("WATCHING 1");
      waiter.sendRaw("reserve\r\n");

      String metrics = new Http(httpPort).get("/metrics").body();
      assertFalse(Http.lines(metrics, "vertx_net_server_active_connections").isEmpty(), "vertx_* series:\n" + metrics);
      assertEquals(3.0, Http.sample(metrics, "beanstalkd_jobs{state=\"ready\",tube=\"default\"}"));
      assertTrue(Http.sample(metrics, "beanstalkd_binlog_bytes") > 0);
      String embedded = new Http(embeddedPort).get("/vertx-metrics").body();
      assertTrue(embedded.contains("vertx_") && embedded.contains("beanstalkd_commands_total"), embedded);
      // The per-tube series too, which are made at each scrape rather than registered as meters.
      assertTrue(embedded.contains("beanstalkd_jobs{state=\"ready\",tube=\"default\"} 3.0"), embedded);

      assertEquals(0, server.terminate(30_000), server.log());
      producer.expectClosed();
      waiter.expectClosed();
    }
    String log = server.log();
    assertTrue(log.contains("SIGTERM: shutting down gracefully"), log);
    assertTrue(log.contains("binlog flushed, fsynced and closed"), log);

    server = start(List.of(), "second.log");
    int again = Integer.parseInt(server.await(LISTENING, START_MILLIS).group(1));
    try (TestClient c = TestClient.connect(again)) {
      assertEquals("3", c.stats("stats").get("current-jobs-ready"));
    }
  }
}
