package io.github.vertxbeanstalkd.durability;

import static io.github.vertxbeanstalkd.durability.Wire.put;
import static io.github.vertxbeanstalkd.durability.Wire.statsJob;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.cluster.Waits;
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

/** maxAge and expire set at run time, and a job they buried, survive a restart (a replay of the binlog). */
class ExpiryAcrossRestartTest {
  @TempDir Path dir;
  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  private JsonObject bus(String action, JsonObject body) throws Exception {
    return vertx.eventBus().<JsonObject>request("beanstalkd", body, new DeliveryOptions().addHeader("action", action))
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).body();
  }

  @Test
  void theSettingsAndAnExpiredJobSurviveARestart() throws Exception {
    ServerConfig config = ServerLife.config(dir, FsyncSetting.always(), 1 << 20, false);
    JsonObject settings = new JsonObject().put("maxAge", 1).put("expire", "bury");
    long old;
    try (ServerLife server = ServerLife.startOn(vertx, config); TestClient c = TestClient.connect(server.port())) {
      bus("set-tube-settings", new JsonObject().put("tube", "work").put("settings", settings));
      bus("set-tube-settings", new JsonObject().put("tube", "*").put("settings",
          new JsonObject().put("maxAge", 3600).put("expire", "delete")));
      old = put(c, "work", 0, 0, "old");
      Waits.until(() -> "buried".equals(statsJob(c, old).get("state")) ? true : null, 10_000,
          () -> "the job was never buried");
    }
    try (ServerLife server = ServerLife.startOn(vertx, config); TestClient c = TestClient.connect(server.port())) {
      JsonObject tubes = bus("tube-settings", new JsonObject()).getJsonObject("tubes");
      assertEquals(settings, tubes.getJsonObject("work"));
      assertEquals(new JsonObject().put("maxAge", 3600).put("expire", "delete"), tubes.getJsonObject("*"));
      assertEquals("buried", statsJob(c, old).get("state"));
      assertEquals("1", statsJob(c, old).get("buries"));
    }
  }
}
