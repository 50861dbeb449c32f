package io.github.vertxbeanstalkd.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/** The admin page's files (plain HTML, CSS and JS from the jar's {@code admin/} folder), held in memory. */
final class StaticFiles {
  private static final Map<String, String> TYPES = Map.of(
      "/index.html", "text/html; charset=utf-8",
      "/admin.css", "text/css; charset=utf-8",
      "/admin.js", "text/javascript; charset=utf-8");

  private final Map<String, Buffer> contents;

  private StaticFiles(Map<String, Buffer> contents) {
    this.contents = contents;
  }

  static StaticFiles load() {
    Map<String, Buffer> contents = new java.util.HashMap<>();
    for (String name : TYPES.keySet()) {
      try (InputStream in = StaticFiles.class.getResourceAsStream("/admin" + name)) {
        if (in == null) {
          throw new IllegalStateException("admin page file missing from the jar: admin" + name);
        }
        contents.put(name, Buffer.buffer(in.readAllBytes()));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return new StaticFiles(Map.copyOf(contents));
  }

  void serve(HttpServerRequest request) {
    String path = request.path().equals("/") ? "/index.html" : request.path();
    Buffer content = contents.get(path);
    if (content == null) {
      Responses.error(request, 404, "NOT_FOUND", "no such page: " + request.path());
      return;
    }
    request.response()
        .putHeader("content-type", TYPES.get(path))
        .putHeader("x-content-type-options", "nosniff")
        .putHeader("content-security-policy", "default-src 'self'")
        .end(content);
  }
}
