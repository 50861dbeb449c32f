package io.github.vertxbeanstalkd.http;

import io.github.vertxbeanstalkd.bus.EngineSnapshot;
import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.CommandParser;
import io.github.vertxbeanstalkd.protocol.Reply;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.function.Function;

/**
 * The admin page's JSON API: tubes and stats to look at; peek, kick, kick-job, delete, pause and
 * drain to act. Reads are GET; changes are POST with a JSON body (so a plain HTML form on another
 * site cannot send one). With a token, every call needs {@code Authorization: Bearer <token>}.
 */
final class AdminApi {
  static final int MAX_BODY_BYTES = 64 * 1024;

  private final EngineCalls engine;
  private final byte[] expectedAuthorization;

  AdminApi(EngineCalls engine, String token) {
    this.engine = engine;
    this.expectedAuthorization = token == null ? null : ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
  }

  void handle(HttpServerRequest request) {
    if (!isAuthorized(request)) {
      request.response().putHeader("www-authenticate", "Bearer");
      Responses.error(request, 401, "UNAUTHORIZED", "this server needs Authorization: Bearer <http.token>");
      return;
    }
    String[] parts = ApiPath.segments(request.path().substring("/api/".length()));
    if (parts == null) {
      Responses.error(request, 400, "BAD_FORMAT", "the path is not valid percent-encoded UTF-8");
      return;
    }
    if (parts.length >= 2 && parts[0].equals("tubes") && !CommandParser.isValidTubeName(parts[1])) {
      Responses.error(request, 400, "BAD_FORMAT", "not a valid tube name");
      return;
    }
    boolean isGet = request.method() == HttpMethod.GET;
    boolean isPost = request.method() == HttpMethod.POST;
    if (isGet && parts.length == 1 && parts[0].equals("tubes")) {
      answer(request, engine.snapshot().map(AdminApi::tubes));
    } else if (isGet && parts.length == 1 && parts[0].equals("stats")) {
      answer(request, engine.call(null, new Command.Stats())
          .map(r -> new JsonObject().put("stats", ((Reply.Stats) r).document().toJson())));
    } else if (isGet && parts.length == 4 && parts[0].equals("tubes") && parts[2].equals("peek")) {
      Command.PeekState peek = switch (parts[3]) {
        case "ready" -> Command.PeekState.READY;
        case "delayed" -> Command.PeekState.DELAYED;
        case "buried" -> Command.PeekState.BURIED;
        default -> null;
      };
      if (peek == null) {
        Responses.error(request, 404, "NOT_FOUND", "peek ready, delayed or buried");
      } else {
        answer(request, peek(parts[1], peek));
      }
    } else if (isPost && parts.length == 3 && parts[0].equals("tubes") && parts[2].equals("kick")) {
      withBody(request, body -> engine.call(parts[1], new Command.Kick(whole(body, "bound", 1, 1L << 32)))
          .map(r -> new JsonObject().put("kicked", ((Reply.Number) r).value())));
    } else if (isPost && parts.length == 3 && parts[0].equals("tubes") && parts[2].equals("pause")) {
      withBody(request, body -> {
        long seconds = whole(body, "seconds", 0, (1L << 32) - 1);
        return engine.call(null, new Command.PauseTube(parts[1], seconds)).map(r -> expect(r, Reply.Word.PAUSED));
      });
    } else if (isPost && parts.length == 3 && parts[0].equals("jobs") && parts[2].equals("kick")) {
      withBody(request, body -> engine.call(null, new Command.KickJob(jobId(parts[1])))
          .map(r -> expect(r, Reply.Word.KICKED)));
    } else if (isPost && parts.length == 3 && parts[0].equals("jobs") && parts[2].equals("delete")) {
      withBody(request, body -> engine.call(null, new Command.Delete(jobId(parts[1])))
          .map(r -> expect(r, Reply.Word.DELETED)));
    } else if (isPost && parts.length == 1 && (parts[0].equals("drain") || parts[0].equals("undrain"))) {
      boolean isDraining = parts[0].equals("drain");
      withBody(request, body -> engine.drain(isDraining).map(v -> new JsonObject().put("draining", isDraining)));
    } else {
      Responses.error(request, 404, "NOT_FOUND", "no such API call: " + request.method() + " " + request.path());
    }
  }

  private boolean isAuthorized(HttpServerRequest request) {
    if (expectedAuthorization == null) {
      return true;
    }
    String given = request.getHeader("authorization");
    // Constant time, so the comparison does not tell how much of a guess was right.
    return given != null && MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), expectedAuthorization);
  }

  private static JsonObject tubes(EngineSnapshot s) {
    JsonArray tubes = new JsonArray();
    for (EngineSnapshot.TubeCounts t : s.tubes().values()) {
      tubes.add(new JsonObject().put("name", t.name()).put("urgent", t.urgent()).put("ready", t.ready())
          .put("reserved", t.reserved()).put("delayed", t.delayed()).put("buried", t.buried())
          .put("total", t.totalJobs()).put("using", t.using()).put("watching", t.watching())
          .put("waiting", t.waiting()).put("paused", t.isPaused()).put("pauseTimeLeft", t.pauseTimeLeftSeconds())
          .put("oldestReadyAgeSeconds", t.oldestReadyAgeSeconds()));
    }
    return new JsonObject().put("tubes", tubes).put("draining", s.isDraining())
        .put("currentConnections", s.currentConnections()).put("uptime", s.uptimeSeconds());
  }

  /** The first job in that state, with its stats-job facts and a preview of its body; job: null if none. */
  private Future<JsonObject> peek(String tube, Command.PeekState peek) {
    return engine.call(tube, peek).compose(r -> {
      if (!(r instanceof Reply.JobBody job)) {
        return Future.succeededFuture(new JsonObject().putNull("job"));
      }
      return engine.call(null, new Command.StatsJob(job.id())).map(stats -> {
        JsonObject facts = stats instanceof Reply.Stats d
            ? d.document().toJson() : new JsonObject().put("id", job.id());
        return new JsonObject().put("job", BodyPreview.of(job.body()).addTo(facts));
      });
    });
  }

  private static JsonObject expect(Reply reply, Reply.Word success) {
    if (reply == success) {
      return new JsonObject();
    }
    throw new ApiRefusal(reply instanceof Reply.Word w && w == Reply.Word.NOT_FOUND ? 404 : 409,
        reply instanceof Reply.Word w ? w.name() : "INTERNAL_ERROR", "the server answered " + reply);
  }

  private static long jobId(String text) {
    try {
      return Long.parseUnsignedLong(text);
    } catch (NumberFormatException e) {
      throw new ApiRefusal(400, "BAD_FORMAT", "a job id is a whole number, got " + text);
    }
  }

  private static long whole(JsonObject body, String key, long fallback, long max) {
    Object v = body.getValue(key);
    if (v == null) {
      return fallback;
    }
    if (v instanceof Number n && n.doubleValue() == n.longValue() && n.longValue() >= 0 && n.longValue() <= max) {
      return n.longValue();
    }
    throw new ApiRefusal(400, "BAD_FORMAT", "'" + key + "' must be a whole number from 0 to " + max);
  }

  /** Reads a JSON object body of bounded size, then runs {@code action} on it. */
  private void withBody(HttpServerRequest request, Function<JsonObject, Future<JsonObject>> action) {
    String type = request.getHeader("content-type");
    if (type == null || !type.toLowerCase().startsWith("application/json")) {
      Responses.error(request, 415, "BAD_FORMAT", "changes are POST with content-type: application/json");
      return;
    }
    Buffer body = Buffer.buffer();
    boolean[] isTooBig = {false};
    request.handler(chunk -> {
      if (body.length() + chunk.length() > MAX_BODY_BYTES) {
        isTooBig[0] = true;
      } else {
        body.appendBuffer(chunk);
      }
    });
    request.endHandler(v -> {
      if (isTooBig[0]) {
        Responses.error(request, 413, "JOB_TOO_BIG", "a request body is at most " + MAX_BODY_BYTES + " bytes");
        return;
      }
      JsonObject json;
      try {
        json = body.length() == 0 ? new JsonObject() : new JsonObject(body);
      } catch (DecodeException | ClassCastException e) {
        Responses.error(request, 400, "BAD_FORMAT", "the body must be a JSON object");
        return;
      }
      answer(request, Future.succeededFuture(json).compose(action));
    });
  }

  private static void answer(HttpServerRequest request, Future<JsonObject> result) {
    result.onComplete(r -> {
      if (r.succeeded()) {
        Responses.json(request, 200, r.result());
      } else if (r.cause() instanceof ApiRefusal refusal) {
        Responses.error(request, refusal.status, refusal.word, refusal.getMessage());
      } else {
        Responses.error(request, 503, "UNAVAILABLE", "the queue engine did not answer: " + r.cause().getMessage());
      }
    });
  }

  /** A call the API refuses, with its HTTP status and the protocol's word for it. */
  static final class ApiRefusal extends RuntimeException {
    final int status;
    final String word;

    ApiRefusal(int status, String word, String message) {
      super(message, null, false, false);
      this.status = status;
      this.word = word;
    }
  }
}
