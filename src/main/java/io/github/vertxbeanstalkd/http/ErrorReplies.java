package io.github.vertxbeanstalkd.http;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Turns every failure of the HTTP front, the router's own included, into {@code {"error": WORD, "message": text}}. */
final class ErrorReplies implements Handler<RoutingContext> {
  private static final Logger log = LoggerFactory.getLogger(ErrorReplies.class);

  private ErrorReplies() {}

  /**
   * Handlers' failures reach the failure handler; what the router decides alone (no route, wrong method,
   * wrong content type, a path it cannot decode) reaches an error handler by status, whose default body is HTML.
   */
  static void install(Router router) {
    ErrorReplies replies = new ErrorReplies();
    router.route().failureHandler(replies);
    for (int status : new int[] {400, 404, 405, 415, 500}) {
      router.errorHandler(status, ctx -> replies.reply(ctx, status));
    }
  }

  @Override
  public void handle(RoutingContext ctx) {
    reply(ctx, ctx.statusCode());
  }

  private void reply(RoutingContext ctx, int status) {
    HttpServerResponse response = ctx.response();
    if (response.ended() || response.closed()) {
      return;
    }
    if (response.headWritten()) {
      // A file cut off mid-way: closing is the only way left to tell the client it is incomplete.
      response.reset();
      return;
    }
    // A handler's Refusal, thrown or failed with, carries its own status and word.
    Throwable failure = ctx.failure();
    if (failure instanceof Refusal refusal) {
      Responses.error(response, refusal.status, refusal.word, refusal.getMessage());
      return;
    }
    HttpServerRequest request = ctx.request();
    switch (status) {
      // The API answers a call it does not know 404, whatever the method; the router would say 405.
      case 404, 405 -> {
        if (request.path().startsWith("/api/")) {
          Responses.error(response, 404, "NOT_FOUND", "no such API call: " + request.method() + " " + request.path());
        } else if (status == 404) {
          Responses.error(response, 404, "NOT_FOUND", "no such page: " + request.path());
        } else {
          Responses.error(response, 405, "METHOD_NOT_ALLOWED", "only GET here");
        }
      }
      // From the router without a cause: a path (parameter) that is not valid percent-encoding.
      case 400 -> Responses.error(response, 400, "BAD_FORMAT",
          failure == null ? "the path is not valid percent-encoded UTF-8" : String.valueOf(failure.getMessage()));
      case 413 -> Responses.error(response, 413, "JOB_TOO_BIG",
          "a request body is at most " + AdminApi.MAX_BODY_BYTES + " bytes");
      case 415 -> Responses.error(response, 415, "BAD_FORMAT", "changes are POST with content-type: application/json");
      case -1, 500 -> {
        // An exception that is not a Refusal is a bug.
        log.error("HTTP {} {} failed", request.method(), request.path(), failure);
        Responses.error(response, 500, "INTERNAL_ERROR", failure == null ? "" : String.valueOf(failure.getMessage()));
      }
      default -> {
        String reason = HttpResponseStatus.valueOf(status).reasonPhrase();
        Responses.error(response, status, reason.toUpperCase(Locale.ROOT).replace(' ', '_'), reason);
      }
    }
  }
}
