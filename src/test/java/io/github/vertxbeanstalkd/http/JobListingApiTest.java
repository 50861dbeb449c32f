package io.github.vertxbeanstalkd.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.HttpConfig;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.tcp.DeployedServerTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** GET /api/tubes/{tube}/jobs/{state} over a real server: pages, cursors, the filter and refusals. */
class JobListingApiTest extends DeployedServerTest {

  @Override
  protected ServerConfig config() {
    return ServerConfig.forTests().withHttp(HttpConfig.onFreePort("127.0.0.1"));
  }

  private JsonObject list(String pathAndQuery) {
    HttpResponse<String> r = new Http(server.httpPort()).get("/api/tubes/" + pathAndQuery);
    assertEquals(200, r.statusCode(), r.body());
    return new JsonObject(r.body());
  }

  private void refused(String pathAndQuery, int status) {
    HttpResponse<String> r = new Http(server.httpPort()).get("/api/tubes/" + pathAndQuery);
    assertEquals(status, r.statusCode(), r.body());
  }

  private static List<Long> ids(JsonObject page) {
    List<Long> ids = new ArrayList<>();
    page.getJsonArray("jobs").forEach(j -> ids.add(((JsonObject) j).getLong("id")));
    return ids;
  }

  @Test
  void readyJobsPageByPriorityThenIdWithNextAndPrevious() {
    TestClient c = connect();
    c.send("use work").expect("USING work");
    long[] priorities = {3, 1, 3, 0, 2};
    for (int i = 0; i < priorities.length; i++) {
      c.send("put " + priorities[i] + " 0 60 1", "x").expect("INSERTED " + (i + 1));
    }
    JsonObject one = list("work/jobs/ready?limit=2");
    assertEquals(List.of(4L, 2L), ids(one));
    assertNull(one.getString("previous"));
    assertTrue(one.getBoolean("complete"));
    JsonObject two = list("work/jobs/ready?limit=2&after=" + one.getString("next"));
    assertEquals(List.of(5L, 1L), ids(two));
    JsonObject three = list("work/jobs/ready?limit=2&after=" + two.getString("next"));
    assertEquals(List.of(3L), ids(three));
    assertNull(three.getString("next"));
    JsonObject back = list("work/jobs/ready?limit=2&before=" + three.getString("previous"));
    assertEquals(List.of(5L, 1L), ids(back));
    assertEquals(List.of(4L, 2L), ids(list("work/jobs/ready?limit=2&before=" + back.getString("previous"))));
  }

  @Test
  void eachJobHasItsStatsJobFactsAndABodyPreview() {
    TestClient c = connect();
    c.send("put 7 0 30 11", "hello world").expect("INSERTED 1");
    c.sendRaw(new byte[] {'p', 'u', 't', ' ', '0', ' ', '0', ' ', '6', '0', ' ', '2', '\r', '\n', 0, (byte) 0xff,
        '\r', '\n'}).expect("INSERTED 2");
    c.send("reserve").expect("RESERVED 2 2").readExactly(4);
    JsonObject job = list("default/jobs/ready").getJsonArray("jobs").getJsonObject(0);
    assertEquals(1, job.getLong("id"));
    assertEquals("ready", job.getString("state"));
    assertEquals(7, job.getLong("pri"));
    assertEquals(30, job.getLong("ttr"));
    assertEquals(0, job.getLong("reserves"));
    assertEquals("text", job.getString("bodyEncoding"));
    assertEquals("hello world", job.getString("body"));
    assertEquals(11, job.getInteger("bodyBytes"));
    JsonObject reserved = list("default/jobs/reserved").getJsonArray("jobs").getJsonObject(0);
    assertEquals(2, reserved.getLong("id"));
    assertEquals("hex", reserved.getString("bodyEncoding"));
    assertEquals("00 ff", reserved.getString("body"));
    assertEquals(1, reserved.getLong("reserves"));
    assertTrue(reserved.getLong("time-left") > 0);
    JsonObject bare = list("default/jobs/ready?preview=false").getJsonArray("jobs").getJsonObject(0);
    assertFalse(bare.containsKey("body"));
    assertEquals(11, bare.getInteger("bodyBytes"));
  }

  @Test
  void theFilterMatchesTheBodysBytes() {
    TestClient c = connect();
    c.send("put 0 0 60 13", "order 17 paid").expect("INSERTED 1");
    c.send("put 0 0 60 9", "refund 18").expect("INSERTED 2");
    c.sendPut(0, 0, 60, "café 17 €".getBytes(StandardCharsets.UTF_8)).expect("INSERTED 3");
    assertEquals(List.of(1L, 3L), ids(list("default/jobs/ready?filter=17")));
    assertEquals(List.of(3L), ids(list("default/jobs/ready?filter=" + URLEncoder.encode("é", StandardCharsets.UTF_8))));
    assertEquals(List.of(), ids(list("default/jobs/ready?filter=nothing")));
  }

  @Test
  void aTubeBiggerThanOneTurnsWorkStillGivesAWholePage() {
    TestClient c = connect();
    int n = 6000;
    StringBuilder puts = new StringBuilder();
    for (int i = 0; i < n; i++) {
      puts.append("put ").append(n - i).append(" 0 60 1\r\nx\r\n");
    }
    c.sendRaw(puts.toString());
    for (int i = 1; i <= n; i++) {
      c.expect("INSERTED " + i);
    }
    JsonObject one = list("default/jobs/ready?limit=200");
    assertEquals(200, one.getJsonArray("jobs").size());
    assertEquals((long) n, ids(one).get(0));
    assertTrue(one.getBoolean("complete"));
    // Every page after it, to the end: each job once.
    List<Long> all = new ArrayList<>(ids(one));
    JsonObject page = one;
    while (page.getString("next") != null) {
      page = list("default/jobs/ready?limit=200&after=" + page.getString("next"));
      all.addAll(ids(page));
    }
    assertEquals(n, all.size());
    assertEquals(n, all.stream().distinct().count());
    assertEquals(1L, all.get(n - 1));
  }

  @Test
  void aMissingTubeListsNothing() {
    JsonObject page = list("nowhere/jobs/buried");
    assertEquals(new JsonArray(), page.getJsonArray("jobs"));
    assertNull(page.getString("next"));
    assertNull(page.getString("previous"));
  }

  @Test
  void badQueriesGetTheProtocolsError() {
    refused("default/jobs/sleeping", 404);
    refused("default/jobs/ready?limit=0", 400);
    refused("default/jobs/ready?limit=201", 400);
    refused("default/jobs/ready?limit=ten", 400);
    refused("default/jobs/ready?after=nonsense", 400);
    refused("default/jobs/ready?after=1_2&before=1_3", 400);
    refused("default/jobs/ready?limit=1&limit=2", 400);
    refused("default/jobs/ready?preview=maybe", 400);
    refused("-bad/jobs/ready", 400);
    HttpResponse<String> r = new Http(server.httpPort()).get("/api/tubes/default/jobs/ready?after=x");
    assertEquals("BAD_FORMAT", new JsonObject(r.body()).getString("error"));
  }
}
