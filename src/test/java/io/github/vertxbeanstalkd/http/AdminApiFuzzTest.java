package io.github.vertxbeanstalkd.http;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.BugDetectors;
import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.api.SilentCloseable;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.github.vertxbeanstalkd.BeanstalkServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;

/**
 * Coverage-guided fuzzing of the HTTP front: methods, paths built from the API's words, percent
 * escapes and raw fuzzed bytes, content types and bodies, sent as raw bytes to a real server's HTTP
 * listener (the production router, {@link AdminApi}, {@link ErrorReplies}). Properties: no 5xx; every
 * error with a body is JSON {@code {"error": WORD, "message": text}}; every API answer is JSON.
 */
class AdminApiFuzzTest {
  private static final List<String> METHODS = List.of("GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH");
  private static final List<String> SEGMENTS = List.of("api", "tubes", "jobs", "peek", "ready", "delayed", "buried",
      "kick", "pause", "delete", "drain", "undrain", "stats", "metrics", "healthz", "readyz", "index.html",
      "app.js", "", ".", "..", "%2E", "%2e%2E", "%00", "%FF", "%C3%A9", "%", "%2", "%2F", "default", "t", "1", "0",
      "18446744073709551615", "18446744073709551616", "-1", "a b", "x".repeat(201), "?x=1", "#f", ";p", "*", "tube-settings", "%2A",
      "flush", "flush?state=all", "flush?state=reserved", "all");
  private static final List<String> CONTENT_TYPES = List.of("application/json", "application/json; charset=utf-8",
      "text/plain", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded", "APPLICATION/JSON");
  private static Vertx vertx;
  private static RawHttp http;

  @AfterAll
  static void close() throws Exception {
    if (http != null) {
      http.close();
    }
    if (vertx != null) {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  @FuzzTest(maxDuration = "5s")
  void pathsAndBodies(FuzzedDataProvider data) throws Exception {
    // The requests go to the server under test on loopback, on purpose.
    try (SilentCloseable loopback = BugDetectors.allowNetworkConnections(
        (host, port) -> host.equals("127.0.0.1") || host.equals("localhost"))) {
      exchange(data);
    }
  }

  private static void exchange(FuzzedDataProvider data) throws Exception {
    if (vertx == null) {
      vertx = Vertx.vertx();
      BeanstalkServer server = BeanstalkServer.deploy(vertx, new JsonObject().put("port", 0).put("http.port", 0)
          .put("eventBus.enabled", false)).await(30, TimeUnit.SECONDS);
      http = new RawHttp(server.httpPort());
    }
    for (int n = data.consumeInt(1, 3); n > 0; n--) {
      String method = data.consumeInt(0, 15) == 0 ? data.consumeAsciiString(8) : data.pickValue(METHODS);
      byte[] target = target(data);
      Map<String, String> headers = new LinkedHashMap<>();
      if (data.consumeBoolean()) {
        headers.put("Content-Type", data.pickValue(CONTENT_TYPES));
      }
      byte[] body = data.consumeBoolean() ? json(data) : data.consumeBytes(data.consumeInt(0, 64));
      RawHttp.Response r = http.exchange(method, target, headers, body);
      check(method, new String(target, StandardCharsets.ISO_8859_1), r);
    }
  }

  private static byte[] target(FuzzedDataProvider data) {
    ByteArrayOutputStream path = new ByteArrayOutputStream();
    for (int n = data.consumeInt(0, 5); n > 0; n--) {
      path.write('/');
      String segment = data.consumeBoolean() ? data.pickValue(SEGMENTS) : data.consumeString(10);
      path.writeBytes(segment.getBytes(StandardCharsets.UTF_8));
    }
    if (path.size() == 0 || data.consumeInt(0, 7) == 0) {
      path.write('/');
    }
    return path.toByteArray();
  }

  private static byte[] json(FuzzedDataProvider data) {
    JsonObject o = new JsonObject();
    for (int n = data.consumeInt(0, 3); n > 0; n--) {
      String key = data.pickValue(List.of("bound", "seconds", "id", "maxJobs", "maxBytes", "maxReserves",
          "deadLetterTube", "maxAge", "expire", "state", data.consumeString(6)));
      switch (data.consumeInt(0, 5)) {
        case 0 -> o.put(key, data.consumeLong());
        case 1 -> o.put(key, data.consumeDouble());
        case 2 -> o.put(key, data.consumeString(10));
        case 3 -> o.putNull(key);
        case 4 -> o.put(key, data.pickValue(List.of(4294967296L, 4294967295L, 0L, 1L)));
        default -> o.put(key, new JsonObject());
      }
    }
    return o.encode().getBytes(StandardCharsets.UTF_8);
  }

  private static void check(String method, String target, RawHttp.Response r) {
    String what = method + " " + target + " answered " + r.status() + " " + r.headers() + " " + r.text();
    if (r.status() < 0) {
      return; // the HTTP decoder closed the connection on a request line it could not read
    }
    assertTrue(r.status() < 500, what);
    // A dot segment may leave /api/ ("/api/.." is the page at /, as a browser would read it too).
    boolean isApi = target.startsWith("/api/") && r.status() == 200 && !target.contains("/.")
        && !target.toLowerCase(java.util.Locale.ROOT).contains("%2e");
    if ((r.status() >= 400 || isApi) && r.body().length > 0) {
      assertTrue(String.valueOf(r.header("content-type")).startsWith("application/json"), what);
      JsonObject json = new JsonObject(r.text());
      if (r.status() >= 400) {
        assertTrue(json.getValue("error") instanceof String && json.getValue("message") instanceof String, what);
      }
    }
  }
}
