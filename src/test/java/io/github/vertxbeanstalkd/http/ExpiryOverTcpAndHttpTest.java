package io.github.vertxbeanstalkd.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.cluster.Waits;
import io.github.vertxbeanstalkd.config.HttpConfig;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.protocol.TubeSettings;
import io.github.vertxbeanstalkd.tcp.DeployedServerTest;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * maxAge on a real server: from the config file, set through the admin API, seen over raw TCP
 * (the job goes, or turns up buried) and counted in /metrics.
 */
class ExpiryOverTcpAndHttpTest extends DeployedServerTest {
  private static final long WAIT_MILLIS = 10_000;

  @Override
  protected ServerConfig config() {
    return ServerConfig.forTests().withHttp(HttpConfig.onFreePort("127.0.0.1"))
        .withTubes(Map.of("short", new TubeSettings(null, null, null, null, 1L, TubeSettings.DELETE)));
  }

  private Http api() {
    return new Http(server.httpPort());
  }

  @Test
  void aJobOlderThanTheConfiguredMaxAgeIsDeletedAndCounted() throws Exception {
    TestClient c = connect();
    c.send("use short").expect("USING short");
    c.send("put 0 0 60 1", "x").expect("INSERTED 1");
    Waits.until(() -> {
      String header = c.send("stats-job 1").readLine();
      if (header.equals("NOT_FOUND")) {
        return true;
      }
      c.readDocument(header);
      return null;
    }, WAIT_MILLIS, () -> "job 1 was never expired");
    String metrics = api().get("/metrics").body();
    assertEquals(1.0, Http.sample(metrics, "beanstalkd_tube_expired_total{action=\"delete\",tube=\"short\"}"), metrics);
  }

  @Test
  void maxAgeSetThroughTheAdminApiBuriesOldJobs() throws Exception {
    HttpResponse<String> set = api().post("/api/tube-settings/default", "{\"maxAge\": 1, \"expire\": \"bury\"}");
    assertEquals(200, set.statusCode(), set.body());
    assertEquals(new JsonObject().put("maxAge", 1).put("expire", "bury"),
        new JsonObject(set.body()).getJsonObject("settings"));
    TestClient c = connect();
    c.send("put 0 0 60 1", "x").expect("INSERTED 1");
    Waits.until(() -> {
      c.send("peek-buried");
      String header = c.readLine();
      if (header.startsWith("FOUND")) {
        c.readLine();
        return true;
      }
      return null;
    }, WAIT_MILLIS, () -> "job 1 was never buried");
  }

  @Test
  void aBadExpireIsRefused() {
    HttpResponse<String> r = api().post("/api/tube-settings/default", "{\"maxAge\": 1, \"expire\": \"drop\"}");
    assertEquals(400, r.statusCode(), r.body());
    assertTrue(r.body().contains("expire"), r.body());
    assertEquals(400, api().post("/api/tube-settings/default", "{\"maxAge\": -1}").statusCode());
  }
}
