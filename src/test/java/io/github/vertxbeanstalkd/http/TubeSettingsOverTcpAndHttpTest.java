package io.github.vertxbeanstalkd.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.HttpConfig;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.protocol.TubeSettings;
import io.github.vertxbeanstalkd.tcp.DeployedServerTest;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Tube settings on a real server: from the config, over raw TCP (OUT_OF_MEMORY, BURIED), changed
 * through the admin API, counted in /metrics, and the reason a job is buried in the peek.
 */
class TubeSettingsOverTcpAndHttpTest extends DeployedServerTest {

  @Override
  protected ServerConfig config() {
    return ServerConfig.forTests().withHttp(HttpConfig.onFreePort("127.0.0.1"))
        .withTubes(Map.of("capped", new TubeSettings(2L, null, null, null),
            "*", new TubeSettings(null, null, 2L, null)));
  }

  private Http api() {
    return new Http(server.httpPort());
  }

  private static JsonObject ok(HttpResponse<String> r) {
    assertEquals(200, r.statusCode(), r.body());
    return new JsonObject(r.body());
  }

  @Test
  void aPutPastTheConfiguredCapAnswersOutOfMemoryOnTheWire() {
    TestClient c = connect();
    c.send("use capped").expect("USING capped");
    c.send("put 0 0 60 1", "a").expect("INSERTED 1");
    c.send("put 0 0 60 1", "b").expect("INSERTED 2");
    c.send("put 0 0 60 1", "c").expectBytes("OUT_OF_MEMORY\r\n".getBytes(StandardCharsets.US_ASCII));
    c.send("delete 1").expect("DELETED");
    c.send("put 0 0 60 1", "d").expect("INSERTED 4");
    String metrics = api().get("/metrics").body();
    assertEquals(1.0, Http.sample(metrics, "beanstalkd_tube_puts_refused_total{reason=\"maxJobs\",tube=\"capped\"}"),
        metrics);
  }

  @Test
  void aReleaseAtMaxReservesAnswersBuriedAndThePeekSaysWhy() {
    TestClient c = connect();
    c.send("put 0 0 60 3", "job").expect("INSERTED 1");
    c.send("reserve").expect("RESERVED 1 3", "job");
    c.send("release 1 0 0").expect("RELEASED");
    c.send("reserve").expect("RESERVED 1 3", "job");
    c.send("release 1 0 0").expectBytes("BURIED\r\n".getBytes(StandardCharsets.US_ASCII));
    JsonObject job = ok(api().get("/api/tubes/default/peek/buried")).getJsonObject("job");
    assertEquals(1, job.getLong("id"));
    assertEquals(new JsonObject().put("reason", "maxReserves").put("from", "default"), job.getJsonObject("deadLetter"));
    String metrics = api().get("/metrics").body();
    assertEquals(1.0, Http.sample(metrics, "beanstalkd_tube_dead_letters_total{tube=\"default\"}"), metrics);
  }

  @Test
  void theAdminApiChangesAndShowsTheSettings() {
    JsonObject table = ok(api().get("/api/tube-settings")).getJsonObject("tubes");
    assertEquals(new JsonObject().put("maxJobs", 2), table.getJsonObject("capped"));
    JsonObject set = ok(api().post("/api/tube-settings/capped", "{\"maxJobs\": 1, \"maxBytes\": 100}"));
    assertEquals(new JsonObject().put("maxJobs", 1).put("maxBytes", 100), set.getJsonObject("settings"));
    assertEquals(new JsonObject().put("maxJobs", 1).put("maxBytes", 100).put("maxReserves", 2),
        set.getJsonObject("effective"));
    TestClient c = connect();
    c.send("use capped").expect("USING capped");
    c.send("put 0 0 60 1", "a").expect("INSERTED 1");
    c.send("put 0 0 60 1", "b").expect("OUT_OF_MEMORY");
    ok(api().post("/api/tube-settings/capped", "{}"));
    c.send("put 0 0 60 1", "c").expect("INSERTED 3");
    JsonObject star = ok(api().get("/api/tube-settings/*"));
    assertEquals(new JsonObject().put("maxReserves", 2), star.getJsonObject("settings"));
  }

  @Test
  void badSettingsAreRefusedAndChangeNothing() {
    HttpResponse<String> r = api().post("/api/tube-settings/capped", "{\"maxJobs\": -1}");
    assertEquals(400, r.statusCode(), r.body());
    assertTrue(r.body().contains("maxJobs"), r.body());
    assertEquals(400, api().post("/api/tube-settings/capped", "{\"maxJob\": 1}").statusCode());
    assertEquals(400, api().post("/api/tube-settings/capped", "{\"deadLetterTube\": \"-x\"}").statusCode());
    assertEquals(400, api().get("/api/tube-settings/a%20b").statusCode());
    assertEquals(new JsonObject().put("maxJobs", 2),
        ok(api().get("/api/tube-settings")).getJsonObject("tubes").getJsonObject("capped"));
  }
}
