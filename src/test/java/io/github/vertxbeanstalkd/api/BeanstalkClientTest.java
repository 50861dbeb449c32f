package io.github.vertxbeanstalkd.api;

import io.github.vertxbeanstalkd.client.*;
import io.github.vertxbeanstalkd.contract.Failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The typed client, its consume helper, and servers embedded side by side in one Vert.x. */
@ExtendWith(VertxExtension.class)
class BeanstalkClientTest {
  private Vertx vertx;
  private BeanstalkServer server;
  private BeanstalkClient client;

  @BeforeEach
  void deploy(Vertx vertx) {
    this.vertx = vertx;
    server = Bus.await(BeanstalkServer.deploy(vertx, ServerConfig.forTests()));
    client = BeanstalkClient.create(vertx);
  }

  @Test
  void putReserveDelete() {
    long id = Bus.await(client.put("emails", "hello"));
    BeanstalkJob job = Bus.await(client.reserve("emails", 0));
    assertEquals(id, job.id());
    assertEquals("emails", job.tube());
    assertEquals("hello", job.bodyAsString());
    Bus.await(client.delete(id));
    assertEquals(Failure.NOT_FOUND, failure(client.peek(id)));
  }

  @Test
  void drainThenUndrainWithoutARestart() {
    Bus.await(client.drain());
    assertEquals(Failure.DRAINING, failure(client.put("t", "refused")));
    Bus.await(client.undrain());
    assertEquals(2L, Bus.await(client.put("t", "accepted")));
  }

  @Test
  void binaryBodiesRoundTrip() {
    Buffer bytes = Buffer.buffer(new byte[] {0, (byte) 0xff, (byte) 0x80, 'z'});
    long id = Bus.await(client.put("bin", bytes, PutOptions.DEFAULTS.withPriority(3)));
    assertEquals(bytes, Bus.await(client.peek(id)).body());
    assertEquals(3L, Bus.await(client.statsJob(id)).getLong("pri"));
  }

  @Test
  void everyCallOfTheClient() {
    long a = Bus.await(client.put("t", Buffer.buffer("a"), PutOptions.DEFAULTS.withDelaySeconds(100)));
    assertEquals(a, Bus.await(client.peekDelayed("t")).id());
    Bus.await(client.kickJob(a));
    assertEquals(a, Bus.await(client.peekReady("t")).id());
    assertEquals(a, Bus.await(client.reserveJob(a)).id());
    Bus.await(client.touch(a));
    Bus.await(client.bury(a));
    assertEquals(a, Bus.await(client.peekBuried("t")).id());
    assertEquals(1L, Bus.await(client.kick("t", 5)));
    assertEquals(a, Bus.await(client.reserve(List.of("other", "t"), 0)).id());
    Bus.await(client.release(a, 7, 0));
    assertEquals(7L, Bus.await(client.statsJob(a)).getLong("pri"));
    assertEquals(a, Bus.await(client.reserve("t", 0)).id());
    Bus.await(client.release(a));
    assertEquals(1L << 31, Bus.await(client.statsJob(a)).getLong("pri"));
    Bus.await(client.reserve("t", 0));
    Bus.await(client.bury(a, 9));
    assertEquals(9L, Bus.await(client.statsJob(a)).getLong("pri"));
    Bus.await(client.pauseTube("t", 30));
    assertEquals(30L, Bus.await(client.statsTube("t")).getLong("pause"));
    assertTrue(Bus.await(client.listTubes()).contains("t"));
    assertEquals(1L, Bus.await(client.stats()).getLong("current-jobs-buried"));
    assertEquals(Failure.TIMED_OUT, failure(client.reserve("empty", 0)));
    assertEquals(Failure.BAD_FORMAT, failure(client.reserve("empty", -1)));
    Bus.await(client.close());
  }

  @Test
  void closeReturnsTheClientsJobsToReady() {
    long id = Bus.await(client.put("t", "x"));
    Bus.await(client.reserve("t", 0));
    Bus.await(client.close());
    JsonObject stats = Bus.await(client.statsJob(id));
    assertEquals("ready", stats.getString("state"));
  }

  @Test
  void consumeDeletesWhatSucceedsAndReleasesWhatFailsWithABackOff() throws Exception {
    for (int i = 0; i < 20; i++) {
      Bus.await(client.put("work", "job-" + i));
    }
    long poison = Bus.await(client.put("work", "poison"));
    Set<String> seen = ConcurrentHashMap.newKeySet();
    AtomicInteger running = new AtomicInteger();
    AtomicInteger mostAtOnce = new AtomicInteger();
    JobConsumer consumer = client.consume(List.of("work"), ConsumeOptions.DEFAULTS.withConcurrency(4)
        .withReserveTimeoutSeconds(1).withBackoffSeconds(30, 60), job -> {
          int now = running.incrementAndGet();
          mostAtOnce.accumulateAndGet(now, Math::max);
          if (job.bodyAsString().equals("poison")) {
            running.decrementAndGet();
            return Future.failedFuture("cannot handle it");
          }
          seen.add(job.bodyAsString());
          return vertx.timer(20).onComplete(v -> running.decrementAndGet());
        });
    assertTrue(Bus.eventually(10_000, () -> seen.size() == 20
        && "delayed".equals(Bus.await(client.statsJob(poison)).getString("state"))));
    Bus.await(consumer.stop());
    assertEquals(20, consumer.handledCount());
    assertEquals(1, consumer.failedCount());
    assertTrue(mostAtOnce.get() > 1 && mostAtOnce.get() <= 4, "at most 4 at once, got " + mostAtOnce.get());
    JsonObject poisoned = Bus.await(client.statsJob(poison));
    assertEquals(1L, poisoned.getLong("releases"));
    assertTrue(poisoned.getLong("time-left") > 20, "released with the back-off delay: " + poisoned);
    JsonObject stats = Bus.await(client.stats());
    assertEquals(20L, stats.getLong("cmd-delete"));
    assertEquals(0L, stats.getLong("current-jobs-reserved"));
    assertEquals(0L, stats.getLong("current-waiting"), "stop ended the waiting reserves");
  }

  @Test
  void twoServersInOneVertxEachWithItsOwnAddress() throws Exception {
    BeanstalkServer second = Bus.await(BeanstalkServer.deploy(vertx,
        new JsonObject().put("port", 0).put("http.port", 0)
            .put("eventBus", new JsonObject().put("address", "second"))));
    BeanstalkClient other = BeanstalkClient.create(vertx, new BeanstalkClientOptions().withAddress("second"));
    Bus.await(client.put("t", "first"));
    Bus.await(other.put("t", "second"));
    Bus.await(other.put("t", "second again"));
    assertEquals(1L, Bus.await(client.stats()).getLong("total-jobs"));
    assertEquals(2L, Bus.await(other.stats()).getLong("total-jobs"));
    try (TestClient a = TestClient.connect(server.port()); TestClient b = TestClient.connect(second.port())) {
      a.send("peek 1").expect("FOUND 1 5", "first");
      b.send("peek 2").expect("FOUND 2 12", "second again");
    }
    Bus.await(second.close());
    assertEquals(1L, Bus.await(client.stats()).getLong("total-jobs"), "the first server lives on");
  }

  @Test
  void aPutSentBeforeTheServerTakesItsAddressIsStoredOnceItDoes() {
    // As during a failover: NO_HANDLERS until a server consumes the address, then the put goes through.
    BeanstalkClient late = BeanstalkClient.create(vertx, new BeanstalkClientOptions().withAddress("late"));
    Future<Long> put = late.put("t", "early");
    Bus.await(BeanstalkServer.deploy(vertx,
        new JsonObject().put("port", 0).put("http.port", 0)
            .put("eventBus", new JsonObject().put("address", "late"))));
    assertEquals(1L, Bus.await(put));
    assertEquals(1L, Bus.await(late.stats()).getLong("total-jobs"), "stored once");
  }

  @Test
  void theTcpListenerCanBeSwitchedOff() {
    BeanstalkServer busOnly = Bus.await(BeanstalkServer.deploy(vertx,
        new JsonObject().put("tcp", new JsonObject().put("enabled", false)).put("http.port", 0)
            .put("eventBus.address", "bus-only")));
    assertEquals(-1, busOnly.port());
    BeanstalkClient c = BeanstalkClient.create(vertx, new BeanstalkClientOptions().withAddress("bus-only"));
    assertEquals(1L, Bus.await(c.put("t", "x")));
  }

  @Test
  void anInvalidConfigurationFailsTheDeploymentNamingTheKey() {
    Throwable e = Bus.awaitFailure(BeanstalkServer.deploy(vertx, new JsonObject().put("eventBus.address", 5)));
    assertTrue(e.getMessage().contains("eventBus.address"), e.getMessage());
  }

  private static Failure failure(Future<?> f) {
    return assertInstanceOf(BeanstalkException.class, Bus.awaitFailure(f)).failure();
  }
}
