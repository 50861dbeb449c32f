package io.github.vertxbeanstalkd.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.cluster.Waits;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.contract.Failure;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** maxAge and expire set over the event bus, and what they do to a job put over it. */
@ExtendWith(VertxExtension.class)
class ExpiryOverTheBusTest {
  private Bus bus;

  @BeforeEach
  void deploy(Vertx vertx) {
    Bus.await(BeanstalkServer.deploy(vertx, ServerConfig.forTests()));
    bus = new Bus(vertx, "beanstalkd");
  }

  @Test
  void anOldJobTurnsUpBuried() throws Exception {
    JsonObject reply = bus.ok("set-tube-settings", new JsonObject().put("tube", "emails")
        .put("settings", new JsonObject().put("maxAge", 1)));
    assertEquals(new JsonObject().put("maxAge", 1), reply.getJsonObject("effective"));
    long id = bus.ok("put", new JsonObject().put("tube", "emails").put("body", "hi")).getLong("id");
    JsonObject buried = Waits.until(() -> {
      try {
        return bus.ok("peek-buried", new JsonObject().put("tube", "emails"));
      } catch (AssertionError notYet) {
        return null;
      }
    }, 10_000, () -> "the job was never buried");
    assertEquals(id, buried.getLong("id"));
  }

  @Test
  void aBadExpireFailsWithBadFormat() {
    bus.fails("set-tube-settings", new JsonObject().put("tube", "x").put("settings",
        new JsonObject().put("expire", "soon")), Failure.BAD_FORMAT);
    bus.fails("set-tube-settings", new JsonObject().put("tube", "x").put("settings",
        new JsonObject().put("maxAge", "1h")), Failure.BAD_FORMAT);
  }
}
