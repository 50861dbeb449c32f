package io.github.vertxbeanstalkd.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.cluster.GroupState;
import io.github.vertxbeanstalkd.cluster.GroupStatus;
import io.github.vertxbeanstalkd.config.HttpConfig;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.engine.Clock;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The admin API of a node that is not its group's primary changes nothing: a standby's jobs are its
 * primary's, and a delete, kick or flush made there alone would differ from the group's (and come
 * back, or vanish, at the next failover). Reads go on; the page names the primary as the place to act.
 */
@ExtendWith(VertxExtension.class)
class StandbyAdminChangesTest {
  private final GroupStatus group = new GroupStatus();
  private BeanstalkServer server;
  private Http http;

  @BeforeEach
  void deploy(Vertx vertx) throws Exception {
    server = BeanstalkServer.deploy(vertx,
            ServerConfig.forTests().withHttp(HttpConfig.onFreePort("127.0.0.1")), Clock.system(), group)
        .toCompletionStage().toCompletableFuture().join();
    http = new Http(server.httpPort());
    try (TestClient c = TestClient.open(server.port(), 10_000)) {
      c.send("use work").expect("USING work");
      c.send("put 0 0 60 1", "a").expect("INSERTED 1");
      c.send("put 0 0 60 1", "b").expect("INSERTED 2");
      c.send("reserve-job 2").expect("RESERVED 2 1");
      c.readLine();
      c.send("bury 2 0").expect("BURIED");
    }
  }

  private void refused(String path, String json) {
    HttpResponse<String> r = http.post(path, json);
    assertEquals(409, r.statusCode(), path + ": " + r.body());
    JsonObject error = new JsonObject(r.body());
    assertEquals("NOT_PRIMARY", error.getString("error"), r.body());
    assertTrue(error.getString("message").contains("standby (term 7)"), r.body());
  }

  private JsonObject tube() {
    HttpResponse<String> r = http.get("/api/tubes");
    assertEquals(200, r.statusCode(), r.body());
    return new JsonObject(r.body()).getJsonArray("tubes").stream().map(JsonObject.class::cast)
        .filter(t -> t.getString("name").equals("work")).findFirst().orElseThrow();
  }

  @Test
  void aStandbyRefusesEveryChangeOfJobsAndTubesAndKeepsItsJobs() {
    group.set(new GroupState(GroupState.STANDBY, 7, 0, false, 0, true, 0, false));
    refused("/api/jobs/1/delete", "{}");
    refused("/api/jobs/2/kick", "{}");
    refused("/api/tubes/work/kick", "{\"bound\": 10}");
    refused("/api/tubes/work/flush", "{\"state\": \"all\"}");
    refused("/api/tubes/work/pause", "{\"seconds\": 60}");
    JsonObject work = tube();
    assertEquals(1, work.getInteger("ready"), work.encode());
    assertEquals(1, work.getInteger("buried"), work.encode());
    assertEquals(false, work.getBoolean("paused"), work.encode());
    // Reads go on: the standby's own copy of the jobs.
    assertEquals(200, http.get("/api/jobs/1").statusCode());
  }

  @Test
  void aPrimaryWhoseLeaseLapsedRefusesToo() {
    group.set(new GroupState(GroupState.PRIMARY, 7, 2, false, 0, true, 0, true));
    group.leaseUntil(System.nanoTime() - 1);
    HttpResponse<String> r = http.post("/api/jobs/1/delete", "{}");
    assertEquals(409, r.statusCode(), r.body());
    assertEquals("NOT_PRIMARY", new JsonObject(r.body()).getString("error"));
    // Once it confirms the lock again, it is the primary and acts.
    group.leaseUntil(System.nanoTime() + 60_000_000_000L);
    assertEquals(200, http.post("/api/jobs/1/delete", "{}").statusCode());
    assertEquals(0, tube().getInteger("ready"));
  }
}
