package io.github.vertxbeanstalkd.api;

import io.github.vertxbeanstalkd.client.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.BeanstalkServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** A put acknowledged over the event bus is in the binlog like a TCP one, and survives a restart. */
@ExtendWith(VertxExtension.class)
class BusDurabilityTest {
  @TempDir
  Path dir;

  @Test
  void aBusPutSurvivesARestart(Vertx vertx) {
    JsonObject config = new JsonObject().put("port", 0).put("http.port", 0)
        .put("binlog", new JsonObject().put("dir", dir.toString()).put("fsync", "always"));
    BeanstalkServer first = Bus.await(BeanstalkServer.deploy(vertx, config));
    BeanstalkClient client = BeanstalkClient.create(vertx);
    long id = Bus.await(client.put("kept", io.vertx.core.buffer.Buffer.buffer("on disk"),
        PutOptions.DEFAULTS.withPriority(42)));
    Bus.await(first.close());
    Bus.await(BeanstalkServer.deploy(vertx, config));
    BeanstalkJob job = Bus.await(client.peekReady("kept"));
    assertEquals(id, job.id());
    assertEquals("on disk", job.bodyAsString());
    assertEquals(42L, Bus.await(client.statsJob(id)).getLong("pri"));
  }
}
