package io.github.vertxbeanstalkd.http;

import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;

/** JSON answers and errors of the HTTP front, all in one shape: {@code {"error": WORD, "message": text}}. */
final class Responses {
  private Responses() {}

  static void json(HttpServerResponse response, int status, JsonObject body) {
    response.setStatusCode(status)
        .putHeader("content-type", "application/json")
        .putHeader("cache-control", "no-store")
        .end(body.encode());
  }

  static void error(HttpServerResponse response, int status, String word, String message) {
    json(response, status, new JsonObject().put("error", word).put("message", message));
  }
}
