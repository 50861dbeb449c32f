package io.github.vertxbeanstalkd.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.HttpConfig;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.tcp.DeployedServerTest;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** The admin API's flush on a real server, seen over raw TCP: what it deletes, what it answers, what it refuses. */
class FlushOverHttpTest extends DeployedServerTest {

  @Override
  protected ServerConfig config() {
    return ServerConfig.forTests().withHttp(HttpConfig.onFreePort("127.0.0.1"));
  }

  private Http api() {
    return new Http(server.httpPort());
  }

  private static JsonObject ok(HttpResponse<String> r) {
    assertEquals(200, r.statusCode(), r.body());
    return new JsonObject(r.body());
  }

  @Test
  void flushingBuriedDeletesThemAndLeavesTheReservedJob() {
    TestClient c = connect();
    c.send("use emails").expect("USING emails");
    c.send("watch emails").expect("WATCHING 2");
    for (int id = 1; id <= 3; id++) {
      c.send("put 0 0 60 1", "x").expect("INSERTED " + id);
    }
    c.send("reserve").expect("RESERVED 1 1", "x");
    c.send("bury 1 0").expect("BURIED");
    c.send("reserve").expect("RESERVED 2 1", "x");
    c.send("bury 2 0").expect("BURIED");
    c.send("reserve").expect("RESERVED 3 1", "x");

    assertEquals(new JsonObject().put("flushed", 2), ok(api().post("/api/tubes/emails/flush?state=buried", "{}")));
    c.send("peek-buried").expect("NOT_FOUND");
    c.send("stats-job 1").expect("NOT_FOUND");
    assertEquals(new JsonObject().put("flushed", 0), ok(api().post("/api/tubes/emails/flush?state=all", "{}")),
        "the reserved job is never flushed");
    c.send("delete 3").expect("DELETED");
  }

  @Test
  void theStateMayComeInTheBody() {
    TestClient c = connect();
    c.send("put 0 30 60 1", "x").expect("INSERTED 1");
    c.send("put 0 0 60 1", "y").expect("INSERTED 2");
    assertEquals(new JsonObject().put("flushed", 1),
        ok(api().post("/api/tubes/default/flush", "{\"state\": \"delayed\"}")));
    c.send("peek-delayed").expect("NOT_FOUND");
    c.send("peek-ready").expect("FOUND 2 1", "y");
  }

  @Test
  void aFlushWithoutAKnownStateIsRefusedAndDeletesNothing() {
    TestClient c = connect();
    c.send("put 0 0 60 1", "x").expect("INSERTED 1");
    for (String path : new String[] {"/api/tubes/default/flush", "/api/tubes/default/flush?state=reserved",
        "/api/tubes/default/flush?state=READY"}) {
      HttpResponse<String> r = api().post(path, "{}");
      assertEquals(400, r.statusCode(), path + ": " + r.body());
      assertEquals("BAD_FORMAT", new JsonObject(r.body()).getString("error"), r.body());
    }
    assertEquals(400, api().post("/api/tubes/a%20b/flush?state=all", "{}").statusCode());
    c.send("peek-ready").expect("FOUND 1 1", "x");
  }
}
