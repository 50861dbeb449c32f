package io.github.vertxbeanstalkd.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.LoopbackPorts;
import io.github.vertxbeanstalkd.TestClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** /readyz says 503 while the binlog is replayed (the HTTP front starts first), then 200. */
@ExtendWith(VertxExtension.class)
class ReadinessDuringReplayTest {
  private static final int JOBS = 60_000;

  @Test
  void readyzIs503WhileReplayingAndHealthzIs200Throughout(Vertx vertx, @TempDir Path dir) throws Exception {
    // No warm-up: the replay is what is watched, and each warm-up took 17-20 s of the suite.
    JsonObject config = new JsonObject().put("port", 0)
        .put("binlog", new JsonObject().put("dir", dir.toString()).put("fsync", "never"))
        .put("http", new JsonObject().put("port", 0));
    BeanstalkServer first = await(BeanstalkServer.deploy(vertx, config));
    try (TestClient c = TestClient.connect(first.port())) {
      String body = "j".repeat(200);
      String put = "put 0 0 60 200\r\n" + body + "\r\n";
      for (int sent = 0; sent < JOBS; sent += 1000) {
        c.sendRaw(put.repeat(1000));
        for (int i = 1; i <= 1000; i++) {
          assertEquals("INSERTED " + (sent + i), c.readLine());
        }
      }
    }
    // The client's first request loads its classes: not while the replay runs.
    assertEquals(200, new Http(first.httpPort()).get("/readyz").statusCode());
    await(first.close());

    // A fixed HTTP port, so that it can be polled before the deployment completes.
    int httpPort = LoopbackPorts.unused();
    Future<BeanstalkServer> second = BeanstalkServer.deploy(vertx,
        config.copy().put("http", new JsonObject().put("port", httpPort)));
    Http http = new Http(httpPort);
    List<String> seen = new ArrayList<>();
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (System.nanoTime() < deadline) {
      HttpResponse<String> readyz;
      try {
        readyz = http.get("/readyz");
      } catch (java.io.UncheckedIOException notListeningYet) {
        Thread.sleep(2); // samples /readyz all through the replay: every state seen is recorded
        continue;
      }
      seen.add(readyz.statusCode() + " " + new JsonObject(readyz.body()).getString("reason"));
      if (readyz.statusCode() == 200) {
        break;
      }
      assertEquals(200, http.get("/healthz").statusCode());
    }
    assertTrue(seen.get(0).startsWith("503 replaying the binlog"), seen.toString());
    assertTrue(seen.get(seen.size() - 1).startsWith("200 listening on"), seen.toString());
    BeanstalkServer replayed = await(second);
    try (TestClient c = TestClient.connect(replayed.port())) {
      assertEquals(String.valueOf(JOBS), c.stats("stats").get("current-jobs-ready"));
    }
    await(replayed.close());
  }

  private static <T> T await(Future<T> f) {
    return f.toCompletionStage().toCompletableFuture().join();
  }
}
