package io.github.vertxbeanstalkd.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.HttpConfig;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.engine.Clock;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A flush runs in slices, and between two slices the engine's event loop reads its sockets: on a
 * server with one event loop, where the TCP front's connections and the engine share it, a client
 * is answered all through a flush of a deep tube. Before, each slice queued the next and Netty ran
 * the queue for up to a second before it polled the sockets again: the client saw the tube full,
 * then empty, and nothing in between (at most one figure a second).
 */
class ClientsDuringAFlushTest {
  private static final int JOBS = 200_000;
  private static final int PIPELINED = 10_000;
  private Vertx vertx;
  private BeanstalkServer server;

  @BeforeEach
  void deploy() throws Exception {
    vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    server = BeanstalkServer.deploy(vertx, ServerConfig.forTests().withHttp(HttpConfig.onFreePort("127.0.0.1")),
        Clock.system()).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  @AfterEach
  void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  @Test
  void aClientSeesTheFlushGoOnSliceBySlice() throws Exception {
    try (TestClient producer = TestClient.connect(server.port())) {
      producer.send("use deep").expect("USING deep");
      String put = "put 0 0 60 1\r\nx\r\n";
      for (int sent = 0; sent < JOBS; sent += PIPELINED) {
        producer.sendRaw(put.repeat(PIPELINED));
        for (int i = 0; i < PIPELINED; i++) {
          String reply = producer.readLine();
          assertTrue(reply.startsWith("INSERTED "), reply);
        }
      }
    }
    try (TestClient watcher = TestClient.connect(server.port())) {
      // Used, the tube stays when its last job goes.
      watcher.send("use deep").expect("USING deep");
      Http api = new Http(server.httpPort());
      CompletableFuture<HttpResponse<String>> flush =
          CompletableFuture.supplyAsync(() -> api.post("/api/tubes/deep/flush?state=all", "{}"));
      // Every figure the watcher is told until the tube is empty; those strictly between full and
      // empty were read while the flush ran.
      Set<Long> between = new HashSet<>();
      long ready;
      do {
        ready = Long.parseLong(watcher.stats("stats-tube deep").get("current-jobs-ready"));
        if (ready > 0 && ready < JOBS) {
          between.add(ready);
        }
      } while (ready > 0);
      HttpResponse<String> flushed = flush.get(60, TimeUnit.SECONDS);
      assertEquals(200, flushed.statusCode(), flushed.body());
      assertEquals(JOBS, new JsonObject(flushed.body()).getInteger("flushed"));
      // A flush of 200,000 jobs is about a hundred slices of 2,000: the watcher, one stats-tube
      // after the other, sees most of them. Reading the sockets once a second it saw one or two.
      assertTrue(between.size() >= 10, "figures seen during the flush: " + between.size());
    }
  }
}
