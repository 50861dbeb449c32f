package io.github.vertxbeanstalkd.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.HttpConfig;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.tcp.DeployedServerTest;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Flow;
import java.util.concurrent.SubmissionPublisher;
import org.junit.jupiter.api.Test;

/** The HTTP front's routing: every refusal in the one JSON shape, exact paths, methods, the body limit and the page. */
class HttpRoutingTest extends DeployedServerTest {
  private static final String TOKEN = "s3cret-token";

  @Override
  protected ServerConfig config() {
    return ServerConfig.forTests().withHttp(HttpConfig.onFreePort("127.0.0.1").withToken(TOKEN));
  }

  private Http api() {
    return new Http(server.httpPort(), "Bearer " + TOKEN);
  }

  private Http anonymous() {
    return new Http(server.httpPort());
  }

  /** The one shape of every error: JSON, never cached, with the protocol's word. */
  private static JsonObject refused(HttpResponse<String> r, int status, String word) {
    assertEquals(status, r.statusCode(), r.body());
    assertEquals("application/json", r.headers().firstValue("content-type").orElse(""), r.body());
    assertEquals("no-store", r.headers().firstValue("cache-control").orElse(""), r.body());
    JsonObject json = new JsonObject(r.body());
    assertEquals(word, json.getString("error"), r.body());
    assertTrue(json.getString("message") != null, r.body());
    return json;
  }

  @Test
  void aMissingTokenIsRefusedWithABearerChallengeForEveryMethodAndPath() {
    HttpResponse<String> r = anonymous().get("/api/tubes");
    refused(r, 401, "UNAUTHORIZED");
    assertEquals("Bearer", r.headers().firstValue("www-authenticate").orElse(""));
    refused(anonymous().get("/api/nothing"), 401, "UNAUTHORIZED");
    refused(anonymous().send("DELETE", "/api/jobs/1", null), 401, "UNAUTHORIZED");
    // A CORS preflight that names the Authorization header is refused too: no route serves OPTIONS.
    HttpResponse<String> preflight = anonymous().send("OPTIONS", "/api/drain", null, "origin", "http://elsewhere",
        "access-control-request-method", "POST", "access-control-request-headers", "authorization");
    refused(preflight, 401, "UNAUTHORIZED");
  }

  @Test
  void aBodyOverTheLimitIsRefusedWhetherItsLengthIsAnnouncedOrChunked() {
    connect().send("put 0 0 60 1", "x").expect("INSERTED 1");
    String tooBig = "{\"pad\": \"" + "a".repeat(AdminApi.MAX_BODY_BYTES) + "\"}";
    refused(api().post("/api/jobs/1/delete", tooBig), 413, "JOB_TOO_BIG");
    refused(api().send("POST", "/api/jobs/1/delete", chunked(tooBig), "content-type", "application/json"), 413,
        "JOB_TOO_BIG");
    // Exactly the limit is read, and the call runs.
    String atLimit = "{\"pad\": \"" + "a".repeat(AdminApi.MAX_BODY_BYTES - 11) + "\"}";
    assertEquals(AdminApi.MAX_BODY_BYTES, atLimit.length());
    assertEquals(200, api().post("/api/jobs/1/delete", atLimit).statusCode());
    connect().send("peek 1").expect("NOT_FOUND");
  }

  @Test
  void aPlusInATubeNameStaysAPlusAndEscapesAreDecoded() {
    TestClient c = connect();
    c.send("use a+b").expect("USING a+b");
    c.send("put 0 0 60 1", "y").expect("INSERTED 1");
    assertEquals(1, readyJob("a+b").getLong("id"));
    assertEquals("a+b", readyJob("a%2Bb").getString("tube"));
    // "%2E%2E" names the tube "..", which the protocol allows: no dot segment is taken out of an API path.
    c.send("use ..").expect("USING ..");
    c.send("put 0 0 60 1", "z").expect("INSERTED 2");
    assertEquals(2, readyJob("%2E%2E").getLong("id"));
    assertEquals(new JsonObject(), new JsonObject(api().post("/api/tubes/a+b/pause", "{\"seconds\": 30}").body()));
    assertEquals("30", c.stats("stats-tube a+b").get("pause"));
  }

  @Test
  void badPercentEncodingAndInvalidUtf8AreBadFormat() throws IOException {
    for (String path : new String[] {"/api/tubes/%ff/peek/ready", "/api/tubes/work/peek/%C3%28",
        "/api/tubes/-bad/peek/ready", "/api/tubes/a%20b/peek/ready"}) {
      refused(api().get(path), 400, "BAD_FORMAT");
    }
    refused(api().post("/api/jobs/%ff/delete", "{}"), 400, "BAD_FORMAT");
    // Escapes that java.net.URI refuses to build, so over a plain socket.
    for (String path : new String[] {"/api/tubes/%zz/peek/ready", "/api/tubes/ab%2/peek/ready", "/api/%g1"}) {
      String reply = rawGet(path);
      assertTrue(reply.startsWith("HTTP/1.1 400 "), reply);
      assertTrue(reply.contains("{\"error\":\"BAD_FORMAT\""), reply);
    }
  }

  /** A GET written by hand, with the token, and the whole reply as text. */
  private String rawGet(String path) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", server.httpPort())) {
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + TOKEN
          + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void aWrongMethodIs405OutsideTheApiAnd404InIt() {
    for (String path : new String[] {"/metrics", "/healthz", "/readyz", "/", "/admin.js", "/nothing.html"}) {
      refused(anonymous().post(path, "{}"), 405, "METHOD_NOT_ALLOWED");
      refused(anonymous().send("DELETE", path, null), 405, "METHOD_NOT_ALLOWED");
    }
    JsonObject json = refused(api().send("PUT", "/api/drain", HttpRequest.BodyPublishers.ofString("{}"),
        "content-type", "application/json"), 404, "NOT_FOUND");
    assertEquals("no such API call: PUT /api/drain", json.getString("message"));
    refused(api().get("/api/drain"), 404, "NOT_FOUND");
    refused(api().post("/api/tubes", "{}"), 404, "NOT_FOUND");
    // An unknown call with the wrong content type is still an unknown call.
    refused(api().post("/api/nothing", "text/plain", "x"), 404, "NOT_FOUND");
    refused(api().post("/api/drain", "text/plain", "{}"), 415, "BAD_FORMAT");
    assertEquals(200, api().post("/api/undrain", "application/json; charset=utf-8", "{}").statusCode());
    refused(api().send("POST", "/api/drain", HttpRequest.BodyPublishers.ofString("{}")), 415, "BAD_FORMAT");
  }

  @Test
  void pathsAreExactATrailingSlashOrAnUnknownPathNamesNothing() {
    for (String path : new String[] {"/healthz/", "/metrics/", "/nothing.html", "/admin/index.html", "/.hidden", "//",
        "//healthz", "/./healthz"}) {
      JsonObject json = refused(anonymous().get(path), 404, "NOT_FOUND");
      assertEquals("no such page: " + path, json.getString("message"));
    }
    refused(anonymous().post("/healthz/", "{}"), 405, "METHOD_NOT_ALLOWED");
    refused(api().get("/api/stats/"), 404, "NOT_FOUND");
    refused(api().post("/api/drain/", "{}"), 404, "NOT_FOUND");
    refused(api().get("/api"), 404, "NOT_FOUND");
    assertEquals("false", connect().stats("stats").get("draining"));
  }

  @Test
  void thePageIsServedWithItsTypesAndSecurityHeadersAndHeadWorks() {
    HttpResponse<String> index = anonymous().get("/");
    assertEquals(200, index.statusCode());
    assertTrue(index.body().contains("<title>vertx-beanstalkd</title>"));
    assertTrue(index.headers().firstValue("content-type").orElse("").toLowerCase().startsWith("text/html"));
    assertEquals("nosniff", index.headers().firstValue("x-content-type-options").orElse(""));
    assertEquals("default-src 'self'", index.headers().firstValue("content-security-policy").orElse(""));
    assertEquals(index.body(), anonymous().get("/index.html").body());
    assertTrue(contentType("/admin.css").startsWith("text/css"));
    assertTrue(contentType("/admin.js").startsWith("text/javascript"));
    HttpResponse<String> missing = anonymous().get("/admin.jss");
    assertFalse(missing.headers().firstValue("content-security-policy").isPresent(), "a 404 is JSON, not the page");
    assertEquals(200, anonymous().send("HEAD", "/healthz", null).statusCode());
    assertEquals(200, anonymous().send("HEAD", "/", null).statusCode());
  }

  private JsonObject readyJob(String tubeInPath) {
    HttpResponse<String> r = api().get("/api/tubes/" + tubeInPath + "/peek/ready");
    assertEquals(200, r.statusCode(), r.body());
    return new JsonObject(r.body()).getJsonObject("job");
  }

  private String contentType(String path) {
    return anonymous().get(path).headers().firstValue("content-type").orElse("");
  }

  /** A body sent chunked, with no content-length announced. */
  private static HttpRequest.BodyPublisher chunked(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    return HttpRequest.BodyPublishers.fromPublisher(new Flow.Publisher<ByteBuffer>() {
      @Override
      public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
        SubmissionPublisher<ByteBuffer> chunks = new SubmissionPublisher<>();
        chunks.subscribe(subscriber);
        for (int at = 0; at < bytes.length; at += 8192) {
          chunks.submit(ByteBuffer.wrap(bytes, at, Math.min(8192, bytes.length - at)));
        }
        chunks.close();
      }
    });
  }
}
