package io.github.vertxbeanstalkd.http;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;

/** JSON answers and errors of the HTTP front, all in one shape: {@code {"error": WORD, "message": text}}. */
final class Responses {
  private Responses() {}

  static void json(HttpServerRequest request, int status, JsonObject body) {
    request.response().setStatusCode(status)
        .putHeader("content-type", "application/json")
        .putHeader("cache-control", "no-store")
        .end(body.encode());
  }

  static void error(HttpServerRequest request, int status, String word, String message) {
    json(request, status, new JsonObject().put("error", word).put("message", message));
  }
}
