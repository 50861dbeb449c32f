package io.github.vertxbeanstalkd.durability;

import static io.github.vertxbeanstalkd.durability.Wire.put;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.FsyncSetting;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A flush is in the binlog: the jobs it deleted stay deleted after a restart, the rest come back. */
class FlushAcrossRestartTest {
  private static final int JOBS = 5_000;
  @TempDir Path dir;
  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  private JsonObject flush(String tube, String state) throws Exception {
    return vertx.eventBus().<JsonObject>request("beanstalkd", new JsonObject().put("tube", tube).put("state", state),
            new DeliveryOptions().addHeader("action", "flush"))
        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS).body();
  }

  @Test
  void flushedJobsStayDeletedAfterARestart() throws Exception {
    ServerConfig config = ServerLife.config(dir, FsyncSetting.never(), 1 << 20, false);
    long kept;
    try (ServerLife server = ServerLife.startOn(vertx, config); TestClient c = TestClient.connect(server.port())) {
      c.send("use big").expect("USING big");
      StringBuilder batch = new StringBuilder();
      for (int i = 0; i < JOBS; i++) {
        batch.append("put 0 0 60 3\r\njob\r\n");
      }
      c.sendRaw(batch.toString());
      for (int i = 0; i < JOBS; i++) {
        c.readLine();
      }
      kept = put(c, "big", 0, 3600, "later");
      // More than one slice per turn's worth: the flush runs over several turns, each logged.
      assertEquals(new JsonObject().put("flushed", JOBS), flush("big", "ready"));
    }
    try (ServerLife server = ServerLife.startOn(vertx, config); TestClient c = TestClient.connect(server.port())) {
      java.util.Map<String, String> tube = c.stats("stats-tube big");
      assertEquals("0", tube.get("current-jobs-ready"));
      assertEquals("1", tube.get("current-jobs-delayed"));
      c.send("use big").expect("USING big");
      c.send("peek-delayed").expect("FOUND " + kept + " 5", "later");
    }
  }
}
