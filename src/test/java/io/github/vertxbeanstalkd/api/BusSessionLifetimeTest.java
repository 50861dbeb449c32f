package io.github.vertxbeanstalkd.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.Await;
import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * EVENTBUS.md: "sessions are cheap": the bus front keeps a named session in the engine only while
 * it holds a job or has a request out. Seen from outside through maxMemory's count, which prices
 * every open session.
 */
@ExtendWith(VertxExtension.class)
class BusSessionLifetimeTest {
  private Bus bus;

  @BeforeEach
  void deploy(Vertx vertx) {
    BeanstalkServer server = Bus.await(BeanstalkServer.deploy(vertx, ServerConfig.forTests()));
    bus = new Bus(vertx, server.eventBusAddress());
  }

  private long memoryBytes() {
    return bus.ok("stats", new JsonObject()).getLong("current-memory-bytes");
  }

  @Test
  void aSessionThatHoldsNothingIsForgotten() {
    long before = memoryBytes();
    for (int i = 0; i < 2_000; i++) {
      String session = "one-off-" + i;
      long id = bus.ok("put", new JsonObject().put("tube", "t").put("body", "x").put("session", session))
          .getLong("id");
      bus.ok("delete", new JsonObject().put("id", id).put("session", session));
    }
    assertEquals(before, memoryBytes());
  }

  @Test
  void aSessionLivesWhileItHoldsAJobAndGoesWhenItsTtrTakesTheJobBack() throws InterruptedException {
    bus.ok("put", new JsonObject().put("body", "job").put("ttr", 1));
    long withJob = memoryBytes();
    bus.ok("reserve", new JsonObject().put("session", "w").put("tubes", new JsonArray().add("default")));
    // MemoryCap.SESSION_BYTES: the holder's session is priced while it holds the job.
    assertEquals(withJob + 512, memoryBytes());
    Await.until("the session gone once its 1 s TTR took its job back", () -> memoryBytes() == withJob, 10_000);
    assertEquals(1L, bus.ok("stats", new JsonObject()).getLong("job-timeouts"));
  }
}
