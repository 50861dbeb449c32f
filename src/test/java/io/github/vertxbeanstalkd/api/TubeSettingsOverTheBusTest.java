package io.github.vertxbeanstalkd.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.contract.Failure;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The tube-settings actions of the event bus, and what the settings do to its put and release. */
@ExtendWith(VertxExtension.class)
class TubeSettingsOverTheBusTest {
  private Bus bus;

  @BeforeEach
  void deploy(Vertx vertx) {
    Bus.await(BeanstalkServer.deploy(vertx, ServerConfig.forTests()));
    bus = new Bus(vertx, "beanstalkd");
  }

  private JsonObject set(String tube, JsonObject settings) {
    return bus.ok("set-tube-settings", new JsonObject().put("tube", tube).put("settings", settings));
  }

  @Test
  void setTubeSettingsAnswersTheTubesOwnAndEffectiveSettings() {
    set("*", new JsonObject().put("maxReserves", 5));
    JsonObject reply = set("emails", new JsonObject().put("maxJobs", 10).put("deadLetterTube", "emails-dead"));
    assertEquals(new JsonObject().put("tube", "emails")
        .put("settings", new JsonObject().put("maxJobs", 10).put("deadLetterTube", "emails-dead"))
        .put("effective", new JsonObject().put("maxJobs", 10).put("maxReserves", 5).put("deadLetterTube",
            "emails-dead")), reply);
    assertEquals(new JsonObject().put("tubes", new JsonObject()
            .put("*", new JsonObject().put("maxReserves", 5))
            .put("emails", new JsonObject().put("maxJobs", 10).put("deadLetterTube", "emails-dead"))),
        bus.ok("tube-settings", new JsonObject()));
  }

  @Test
  void aPutPastMaxBytesFailsWithOutOfMemory() {
    set("emails", new JsonObject().put("maxBytes", 5));
    bus.ok("put", new JsonObject().put("tube", "emails").put("body", "12345"));
    bus.fails("put", new JsonObject().put("tube", "emails").put("body", "6"), Failure.OUT_OF_MEMORY);
  }

  @Test
  void aReleaseAtMaxReservesSaysBuriedAndTheJobIsInTheDeadLetterTube() {
    set("emails", new JsonObject().put("maxReserves", 1).put("deadLetterTube", "emails-dead"));
    long id = bus.ok("put", new JsonObject().put("tube", "emails").put("body", "hi")).getLong("id");
    bus.ok("reserve", new JsonObject().put("session", "w").put("tubes", new JsonArray().add("emails"))
        .put("timeout", 0));
    assertEquals(new JsonObject().put("buried", true),
        bus.ok("release", new JsonObject().put("session", "w").put("id", id)));
    JsonObject peeked = bus.ok("peek-buried", new JsonObject().put("tube", "emails-dead"));
    assertEquals(id, peeked.getLong("id"));
  }

  @Test
  void badRequestsFailWithBadFormat() {
    bus.fails("set-tube-settings", new JsonObject().put("settings", new JsonObject()), Failure.BAD_FORMAT);
    bus.fails("set-tube-settings", new JsonObject().put("tube", "a b"), Failure.BAD_FORMAT);
    bus.fails("set-tube-settings", new JsonObject().put("tube", "x").put("settings",
        new JsonObject().put("maxJobs", "many")), Failure.BAD_FORMAT);
    bus.fails("set-tube-settings", new JsonObject().put("tube", "x").put("settings",
        new JsonObject().put("colour", 1)), Failure.BAD_FORMAT);
    assertEquals(new JsonObject().put("tubes", new JsonObject()), bus.ok("tube-settings", new JsonObject()));
  }
}
