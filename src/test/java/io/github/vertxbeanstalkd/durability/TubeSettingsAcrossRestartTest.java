package io.github.vertxbeanstalkd.durability;

import static io.github.vertxbeanstalkd.durability.Wire.number;
import static io.github.vertxbeanstalkd.durability.Wire.put;
import static io.github.vertxbeanstalkd.durability.Wire.statsJob;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.FsyncSetting;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.protocol.TubeSettings;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tube settings changed at run time, a dead letter and a kicked job's fresh count survive a
 * restart (a replay of the binlog), also after compaction deleted the segments they were written in.
 */
class TubeSettingsAcrossRestartTest {
  private static final long SEGMENT_BYTES = 4096;
  @TempDir Path dir;
  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  private JsonObject setTubeSettings(String tube, JsonObject settings) throws Exception {
    return vertx.eventBus().<JsonObject>request("beanstalkd", new JsonObject().put("tube", tube)
            .put("settings", settings), new DeliveryOptions().addHeader("action", "set-tube-settings"))
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).body();
  }

  private JsonObject tubeSettings() throws Exception {
    return vertx.eventBus().<JsonObject>request("beanstalkd", new JsonObject(),
            new DeliveryOptions().addHeader("action", "tube-settings"))
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).body();
  }

  /** Reserves and releases job {@code id} of tube {@code tube}; returns the release's reply. */
  private static String reserveAndRelease(TestClient c, String tube, long id) {
    c.send("watch " + tube).readLine();
    c.send("reserve-job " + id).readLine();
    c.readLine();
    return c.send("release " + id + " 0 0").readLine();
  }

  @Test
  void settingsDeadLettersAndFreshCountsSurviveARestartAfterCompaction() throws Exception {
    ServerConfig config = ServerLife.config(dir, FsyncSetting.always(), SEGMENT_BYTES, false)
        .withTubes(Map.of("capped", new TubeSettings(5L, null, null, null)));
    long dead;
    long kicked;
    try (ServerLife server = ServerLife.startOn(vertx, config); TestClient c = TestClient.connect(server.port())) {
      setTubeSettings("work", new JsonObject().put("maxReserves", 3).put("deadLetterTube", "work-dead"));
      setTubeSettings("*", new JsonObject().put("maxJobs", 1000));
      setTubeSettings("capped", new JsonObject().put("maxJobs", 1));
      dead = put(c, "work", 0, 0, "dies");
      kicked = put(c, "work", 0, 0, "kicked");
      assertEquals("RELEASED", reserveAndRelease(c, "work", dead));
      assertEquals("RELEASED", reserveAndRelease(c, "work", dead));
      assertEquals("BURIED", reserveAndRelease(c, "work", dead));
      assertEquals("work-dead", statsJob(c, dead).get("tube"));
      assertEquals("RELEASED", reserveAndRelease(c, "work", kicked));
      c.send("reserve-job " + kicked).readLine();
      c.readLine();
      c.send("bury " + kicked + " 0").expect("BURIED");
      c.send("use work").expect("USING work");
      c.send("kick 1").expect("KICKED 1");
      assertEquals("RELEASED", reserveAndRelease(c, "work", kicked));
      // Release churn on jobs of their own rolls segments until the ones above are compacted away.
      c.send("use churn").expect("USING churn");
      long churn = put(c, "churn", 0, 0, "x".repeat(200));
      for (int round = 0; round < 100; round++) {
        reserveAndRelease(c, "churn", churn);
      }
      assertTrue(number(c.stats("stats"), "binlog-oldest-index") > 1, "old segments were deleted");
    }
    try (ServerLife server = ServerLife.startOn(vertx, config); TestClient c = TestClient.connect(server.port())) {
      // The file names "capped": its maxJobs 5 wins over the run time's 1; the rest is as it was.
      JsonObject tubes = tubeSettings().getJsonObject("tubes");
      assertEquals(new JsonObject().put("maxJobs", 5), tubes.getJsonObject("capped"));
      assertEquals(new JsonObject().put("maxReserves", 3).put("deadLetterTube", "work-dead"),
          tubes.getJsonObject("work"));
      assertEquals(new JsonObject().put("maxJobs", 1000), tubes.getJsonObject("*"));
      Map<String, String> job = statsJob(c, dead);
      assertEquals("work-dead", job.get("tube"));
      assertEquals("buried", job.get("state"));
      // The kicked job has 3 reserves, 1 since its kick: a fourth is its second of maxReserves 3, a
      // fifth its third (had its count started at its put, the fourth would have buried it).
      assertEquals("RELEASED", reserveAndRelease(c, "work", kicked));
      assertEquals("BURIED", reserveAndRelease(c, "work", kicked));
      assertEquals("5", statsJob(c, kicked).get("reserves"));
      assertEquals("work-dead", statsJob(c, kicked).get("tube"));
      c.send("use capped").expect("USING capped");
      for (int i = 0; i < 5; i++) {
        assertTrue(c.send("put 0 0 60 1", "j").readLine().startsWith("INSERTED "));
      }
      c.send("put 0 0 60 1", "j").expect("OUT_OF_MEMORY");
    }
  }
}
