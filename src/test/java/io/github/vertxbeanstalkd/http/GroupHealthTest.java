package io.github.vertxbeanstalkd.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.cluster.GroupState;
import io.github.vertxbeanstalkd.cluster.GroupStatus;
import io.github.vertxbeanstalkd.config.HttpConfig;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.engine.Clock;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.net.http.HttpResponse;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** /healthz and /readyz of a node of a replication group say its role (REPLICATION.md, "Roles"). */
@ExtendWith(VertxExtension.class)
class GroupHealthTest {
  private final GroupStatus group = new GroupStatus();
  private Http http;

  @BeforeEach
  void deploy(Vertx vertx) {
    BeanstalkServer server = BeanstalkServer.deploy(vertx,
            ServerConfig.forTests().withHttp(HttpConfig.onFreePort("127.0.0.1")), Clock.system(), group)
        .toCompletionStage().toCompletableFuture().join();
    http = new Http(server.httpPort());
    listeners = new JsonArray().add("127.0.0.1:" + server.port());
  }

  /** /healthz names every protocol listener; here the short form's alone. */
  private JsonArray listeners;

  private JsonObject healthz() {
    HttpResponse<String> r = http.get("/healthz");
    assertEquals(200, r.statusCode(), r.body());
    return new JsonObject(r.body());
  }

  @Test
  void aPrimarySaysItsStandbysWhetherItIsDegradedAndItsTerm() {
    group.set(new GroupState(GroupState.PRIMARY, 7, 2, false, 0, true, 1, true));
    assertEquals(new JsonObject().put("status", "ok").put("phase", "serving").put("listeners", listeners)
        .put("reason", "the process is up and serving")
        .put("role", "primary").put("term", 7).put("standbys", 2).put("degraded", false).put("fencing", "safe"),
        healthz());
    group.set(new GroupState(GroupState.PRIMARY, 8, 0, true, 0, true, 1, true));
    JsonObject degraded = healthz();
    assertEquals(true, degraded.getBoolean("degraded"));
    assertEquals(0, degraded.getInteger("standbys"));
    assertEquals(8L, degraded.getLong("term"));
    HttpResponse<String> readyz = http.get("/readyz");
    assertEquals(200, readyz.statusCode(), readyz.body());
    assertEquals("primary", new JsonObject(readyz.body()).getString("role"));
  }

  @Test
  void aPrimaryWhoseLeaseLapsedSaysSyncingAndIsNotReadyUntilItConfirmsTheLockAgain() {
    group.set(new GroupState(GroupState.PRIMARY, 9, 2, false, 0, true, 1, true));
    group.leaseUntil(System.nanoTime() - 1);
    JsonObject lapsed = healthz();
    assertEquals("syncing", lapsed.getString("role"), lapsed.encode());
    assertEquals(9L, lapsed.getLong("term"));
    assertEquals(503, http.get("/readyz").statusCode());
    group.leaseUntil(System.nanoTime() + 60_000_000_000L);
    assertEquals("primary", healthz().getString("role"));
    assertEquals(200, http.get("/readyz").statusCode());
  }

  @Test
  void aStandbySaysItsLagAndIsNotReadyUnlessItForwards() {
    group.set(new GroupState(GroupState.STANDBY, 7, 0, false, 4096, true, 0, false));
    JsonObject health = healthz();
    assertEquals(Set.of("status", "phase", "listeners", "reason", "role", "term", "lagBytes", "fencing"),
        health.fieldNames());
    assertEquals("ok", health.getString("status"));
    assertEquals("standby", health.getString("role"));
    assertEquals(4096L, health.getLong("lagBytes"));
    assertEquals(7L, health.getLong("term"));
    HttpResponse<String> readyz = http.get("/readyz");
    assertEquals(503, readyz.statusCode());
    assertEquals(new JsonObject().put("ready", false).put("reason", "standby: no primary known to forward connections to")
        .put("role", "standby"), new JsonObject(readyz.body()));
    // The sidecar pattern: a standby that forwards its TCP connections to the primary serves the queue.
    group.set(new GroupState(GroupState.STANDBY, 7, 0, false, 0, true, 0, true));
    HttpResponse<String> forwarding = http.get("/readyz");
    assertEquals(200, forwarding.statusCode());
    assertEquals("standby", new JsonObject(forwarding.body()).getString("role"));
    assertTrue(new JsonObject(forwarding.body()).getString("reason").endsWith("; connections forwarded to the primary (term 7)"),
        forwarding.body());
  }

  @Test
  void aSyncingNodeSaysItsLagAndIsNotReady() {
    group.set(new GroupState(GroupState.SYNCING, 3, 0, false, 1_000_000, true, 0, false));
    JsonObject health = healthz();
    assertEquals("syncing", health.getString("role"));
    assertEquals(1_000_000L, health.getLong("lagBytes"));
    assertFalse(health.containsKey("standbys"));
    assertFalse(health.containsKey("degraded"));
    HttpResponse<String> readyz = http.get("/readyz");
    assertEquals(503, readyz.statusCode());
    assertEquals("syncing: copying the primary's state; no primary known to forward connections to",
        new JsonObject(readyz.body()).getString("reason"));
  }

  @Test
  void withoutACpSubsystemFencingIsUnsafe() {
    group.set(new GroupState(GroupState.PRIMARY, 1, 1, false, 0, false, 0, true));
    assertEquals("unsafe", healthz().getString("fencing"));
    group.set(new GroupState(GroupState.STANDBY, 1, 0, false, 0, false, 0, false));
    assertEquals("unsafe", healthz().getString("fencing"));
  }

  @Test
  void aNodeThatIsNotReplicatedAnswersAsBefore() {
    assertEquals(new JsonObject().put("status", "ok").put("phase", "serving").put("listeners", listeners)
        .put("reason", "the process is up and serving"),
        healthz());
    HttpResponse<String> readyz = http.get("/readyz");
    assertEquals(200, readyz.statusCode());
    assertEquals(Set.of("ready", "reason"), new JsonObject(readyz.body()).fieldNames());
  }
}
