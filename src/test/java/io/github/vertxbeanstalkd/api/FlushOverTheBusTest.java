package io.github.vertxbeanstalkd.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.contract.Failure;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The event bus's flush action: its reply, its states, and its refusals. */
@ExtendWith(VertxExtension.class)
class FlushOverTheBusTest {
  private Bus bus;

  @BeforeEach
  void deploy(Vertx vertx) {
    Bus.await(BeanstalkServer.deploy(vertx, ServerConfig.forTests()));
    bus = new Bus(vertx, "beanstalkd");
  }

  private long put(String tube, int delaySeconds) {
    return bus.ok("put", new JsonObject().put("tube", tube).put("body", "x").put("delay", delaySeconds)).getLong("id");
  }

  @Test
  void flushAnswersHowManyJobsItDeleted() {
    put("emails", 0);
    put("emails", 0);
    put("emails", 60);
    put("other", 0);
    assertEquals(new JsonObject().put("flushed", 2),
        bus.ok("flush", new JsonObject().put("tube", "emails").put("state", "ready")));
    bus.fails("peek-ready", new JsonObject().put("tube", "emails"), Failure.NOT_FOUND);
    assertEquals(new JsonObject().put("flushed", 1),
        bus.ok("flush", new JsonObject().put("tube", "emails").put("state", "all")));
    bus.ok("peek-ready", new JsonObject().put("tube", "other"));
  }

  @Test
  void aReservedJobStays() {
    long id = put("work", 0);
    bus.ok("reserve", new JsonObject().put("session", "w").put("tubes", new JsonArray().add("work")).put("timeout", 0));
    assertEquals(new JsonObject().put("flushed", 0),
        bus.ok("flush", new JsonObject().put("tube", "work").put("state", "all")));
    bus.ok("delete", new JsonObject().put("session", "w").put("id", id));
  }

  @Test
  void badFlushesFailWithBadFormat() {
    put("default", 0);
    bus.fails("flush", new JsonObject().put("state", "all"), Failure.BAD_FORMAT);
    bus.fails("flush", new JsonObject().put("tube", "default"), Failure.BAD_FORMAT);
    bus.fails("flush", new JsonObject().put("tube", "default").put("state", "reserved"), Failure.BAD_FORMAT);
    bus.fails("flush", new JsonObject().put("tube", "a b").put("state", "all"), Failure.BAD_FORMAT);
    bus.ok("peek-ready", new JsonObject().put("tube", "default"));
  }
}
