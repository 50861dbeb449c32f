package io.github.vertxbeanstalkd.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.HttpConfig;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.tcp.DeployedServerTest;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** The admin page's JSON API over a real server, with a token: refusals first, then every call. */
class AdminApiTest extends DeployedServerTest {
  private static final String TOKEN = "s3cret-token";

  @Override
  protected ServerConfig config() {
    return ServerConfig.forTests().withHttp(HttpConfig.onFreePort("127.0.0.1").withToken(TOKEN));
  }

  private Http api() {
    return new Http(server.httpPort(), "Bearer " + TOKEN);
  }

  private static JsonObject ok(HttpResponse<String> r) {
    assertEquals(200, r.statusCode(), r.body());
    return new JsonObject(r.body());
  }

  private static void refused(HttpResponse<String> r, int status, String word) {
    assertEquals(status, r.statusCode(), r.body());
    assertEquals(word, new JsonObject(r.body()).getString("error"), r.body());
  }

  @Test
  void aMissingOrWrongTokenIsRefusedOnEveryCallAndChangesNothing() {
    connect().send("put 0 0 60 1", "x").expect("INSERTED 1");
    Http anonymous = new Http(server.httpPort());
    refused(anonymous.get("/api/tubes"), 401, "UNAUTHORIZED");
    refused(anonymous.post("/api/jobs/1/delete", "{}"), 401, "UNAUTHORIZED");
    refused(anonymous.withAuthorization("Bearer wrong").post("/api/drain", "{}"), 401, "UNAUTHORIZED");
    refused(anonymous.withAuthorization(TOKEN).get("/api/stats"), 401, "UNAUTHORIZED");
    connect().send("peek 1").expect("FOUND 1 1", "x");
    assertEquals("false", connect().stats("stats").get("draining"));
    // The page, health and metrics need no token.
    assertEquals(200, anonymous.get("/").statusCode());
    assertEquals(200, anonymous.get("/healthz").statusCode());
    assertEquals(200, anonymous.get("/metrics").statusCode());
  }

  @Test
  void tubesStatsPeekKickKickJobDeleteAndPause() {
    TestClient c = connect();
    c.send("use work").expect("USING work");
    c.send("put 5 0 60 5", "hello").expect("INSERTED 1");
    c.sendRaw(new byte[] {'p', 'u', 't', ' ', '0', ' ', '0', ' ', '6', '0', ' ', '3', '\r', '\n', 0, 1, (byte) 0xff,
        '\r', '\n'}).expect("INSERTED 2");
    c.send("put 0 0 60 1", "z").expect("INSERTED 3");
    c.send("watch work").expect("WATCHING 2");
    c.send("reserve").expect("RESERVED 2 3").readExactly(5);
    c.send("bury 2 0").expect("BURIED");
    c.send("reserve").expect("RESERVED 3 1", "z");
    c.send("bury 3 0").expect("BURIED");

    JsonObject work = ok(api().get("/api/tubes")).getJsonArray("tubes").getJsonObject(1);
    assertEquals("work", work.getString("name"));
    assertEquals(1, work.getLong("ready"));
    assertEquals(2, work.getLong("buried"));
    assertEquals(false, work.getBoolean("paused"));
    assertEquals(3, ok(api().get("/api/stats")).getJsonObject("stats").getLong("cmd-put"));

    JsonObject ready = ok(api().get("/api/tubes/work/peek/ready")).getJsonObject("job");
    assertEquals(1, ready.getLong("id"));
    assertEquals("text", ready.getString("bodyEncoding"));
    assertEquals("hello", ready.getString("body"));
    assertEquals(5, ready.getLong("pri"));
    JsonObject buried = ok(api().get("/api/tubes/work/peek/buried")).getJsonObject("job");
    assertEquals(2, buried.getLong("id"));
    assertEquals("hex", buried.getString("bodyEncoding"));
    assertEquals("00 01 ff", buried.getString("body"));
    assertEquals(3, buried.getLong("bodyBytes"));
    assertTrue(ok(api().get("/api/tubes/work/peek/delayed")).getValue("job") == null);

    ok(api().post("/api/jobs/3/kick", "{}"));
    assertEquals("ready", c.stats("stats-job 3").get("state"));
    assertEquals(1, ok(api().post("/api/tubes/work/kick", "{\"bound\": 5}")).getLong("kicked"));
    assertEquals("ready", c.stats("stats-job 2").get("state"));
    ok(api().post("/api/jobs/1/delete", "{}"));
    c.send("peek 1").expect("NOT_FOUND");
    refused(api().post("/api/jobs/1/delete", "{}"), 404, "NOT_FOUND");
    refused(api().post("/api/jobs/2/kick", "{}"), 404, "NOT_FOUND");

    ok(api().post("/api/tubes/work/pause", "{\"seconds\": 60}"));
    assertEquals("60", c.stats("stats-tube work").get("pause"));
    assertEquals(true, ok(api().get("/api/tubes")).getJsonArray("tubes").getJsonObject(1).getBoolean("paused"));
    ok(api().post("/api/tubes/work/pause", "{\"seconds\": 0}"));
    assertEquals("0", c.stats("stats-tube work").get("pause"));
  }

  @Test
  void drainAndUndrainAndReadyzFollow() {
    Http http = api();
    assertEquals(200, http.get("/readyz").statusCode());
    assertEquals(true, ok(http.post("/api/drain", "{}")).getBoolean("draining"));
    connect().send("put 0 0 60 1", "x").expect("DRAINING");
    HttpResponse<String> readyz = http.get("/readyz");
    assertEquals(503, readyz.statusCode());
    assertEquals(false, new JsonObject(readyz.body()).getBoolean("ready"));
    assertTrue(new JsonObject(readyz.body()).getString("reason").startsWith("draining"), readyz.body());
    assertEquals(true, ok(http.get("/api/tubes")).getBoolean("draining"));
    assertEquals(false, ok(http.post("/api/undrain", "{}")).getBoolean("draining"));
    connect().send("put 0 0 60 1", "x").expect("INSERTED 2");
    assertEquals(200, http.get("/readyz").statusCode());
    JsonObject health = new JsonObject(http.get("/healthz").body());
    assertEquals("ok", health.getString("status"));
    assertEquals("serving", health.getString("phase"));
  }

  @Test
  void badRequestsGetTheProtocolsWordsAndNoHarm() {
    connect().send("put 0 0 60 1", "x").expect("INSERTED 1");
    refused(api().post("/api/jobs/1/delete", "text/plain", "{}"), 415, "BAD_FORMAT");
    refused(api().post("/api/jobs/1/delete", "[1, 2]"), 400, "BAD_FORMAT");
    refused(api().post("/api/jobs/1/delete", "{not json"), 400, "BAD_FORMAT");
    refused(api().post("/api/jobs/x1/delete", "{}"), 400, "BAD_FORMAT");
    refused(api().post("/api/tubes/work/kick", "{\"bound\": -1}"), 400, "BAD_FORMAT");
    refused(api().post("/api/tubes/work/kick", "{\"bound\": \"7\"}"), 400, "BAD_FORMAT");
    refused(api().post("/api/tubes/-bad/kick", "{}"), 400, "BAD_FORMAT");
    refused(api().get("/api/tubes/%ff/peek/ready"), 400, "BAD_FORMAT");
    refused(api().get("/api/tubes/work/peek/reserved"), 404, "NOT_FOUND");
    refused(api().post("/api/jobs/1/delete", "{\"pad\": \"" + "a".repeat(AdminApi.MAX_BODY_BYTES) + "\"}"), 413,
        "JOB_TOO_BIG");
    refused(api().get("/api/nothing"), 404, "NOT_FOUND");
    refused(api().get("/api/jobs/1/delete"), 404, "NOT_FOUND");
    refused(new Http(server.httpPort()).post("/metrics", "{}"), 405, "METHOD_NOT_ALLOWED");
    refused(new Http(server.httpPort()).get("/nothing.html"), 404, "NOT_FOUND");
    connect().send("peek 1").expect("FOUND 1 1", "x");
    // A tube name with the characters beanstalkd allows, percent-encoded by the page.
    TestClient c = connect();
    c.send("use a+b/c;d$e(f)").expect("USING a+b/c;d$e(f)");
    c.send("put 0 0 60 1", "y").expect("INSERTED 2");
    assertEquals(2, ok(api().get("/api/tubes/a%2Bb%2Fc%3Bd%24e(f)/peek/ready")).getJsonObject("job").getLong("id"));
  }
}
