package io.github.vertxbeanstalkd.http;

import io.github.vertxbeanstalkd.config.TubeSettingsJson;
import io.github.vertxbeanstalkd.bus.EngineSnapshot;
import io.github.vertxbeanstalkd.bus.TubeSettingsAnswer;
import io.github.vertxbeanstalkd.bus.JobCursor;
import io.github.vertxbeanstalkd.bus.JobQuery;
import io.github.vertxbeanstalkd.protocol.JobState;
import io.github.vertxbeanstalkd.protocol.TubeSettings;
import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.CommandParser;
import io.github.vertxbeanstalkd.protocol.Reply;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The admin page's JSON API: tubes, stats and job listings to look at; peek, kick, kick-job, delete, pause,
 * drain and tube settings to act. Reads are GET; changes are POST with a JSON body (so a plain HTML form on another
 * site cannot send one).
 */
final class AdminApi {
  static final int MAX_BODY_BYTES = 64 * 1024;

  /** Jobs a listing page may ask for. */
  static final int MAX_PAGE_JOBS = 200;
  static final int DEFAULT_PAGE_JOBS = 50;
  /** Bytes a listing's filter may hold. */
  static final int MAX_FILTER_BYTES = 1024;

  private final EngineCalls engine;
  private final GroupHealth group;
  private final JobPages pages;
  // No file uploads: a form body is refused (415) before it is read, and nothing is written to disk.
  private final BodyHandler body = BodyHandler.create(false).setBodyLimit(MAX_BODY_BYTES);

  AdminApi(EngineCalls engine, GroupHealth group) {
    this.engine = engine;
    this.group = group;
    this.pages = new JobPages(engine);
  }

  /** Adds the API's routes under /api/, after the token check if there is one. */
  void addRoutes(Router router) {
    // Every call on a tube checks its name first, whatever follows it (a Refusal thrown fails the request).
    raw(router.route("/api/tubes/:tube/*")).handler(ctx -> {
      if (!CommandParser.isValidTubeName(param(ctx, "tube"))) {
        throw new Refusal(400, "BAD_FORMAT", "not a valid tube name");
      }
      ctx.next();
    });
    get(router, "/api/tubes", ctx -> engine.snapshot().map(AdminApi::tubes));
    get(router, "/api/stats", ctx -> engine.call(null, new Command.Stats())
        .map(r -> new JsonObject().put("stats", ((Reply.Stats) r).document().toJson())));
    get(router, "/api/tubes/:tube/peek/:state", ctx -> peek(param(ctx, "tube"), switch (param(ctx, "state")) {
      case "ready" -> Command.PeekState.READY;
      case "delayed" -> Command.PeekState.DELAYED;
      case "buried" -> Command.PeekState.BURIED;
      default -> throw new Refusal(404, "NOT_FOUND", "peek ready, delayed or buried");
    }));
    get(router, "/api/tubes/:tube/jobs/:state", ctx -> pages.page(jobQuery(ctx)));
    get(router, "/api/jobs/:id", ctx -> peek(null, new Command.Peek(jobId(param(ctx, "id")))));
    change(router, "/api/tubes/:tube/kick", (ctx, json) -> engine.call(param(ctx, "tube"),
        new Command.Kick(whole(json, "bound", 1, 1L << 32)))
        .map(r -> new JsonObject().put("kicked", ((Reply.Number) r).value())));
    change(router, "/api/tubes/:tube/flush", (ctx, json) -> engine.flush(param(ctx, "tube"), flush(ctx, json))
        .map(r -> {
          if (r instanceof Reply.Number n) {
            return new JsonObject().put("flushed", n.value());
          }
          return expect(r, null);
        }));
    change(router, "/api/tubes/:tube/pause", (ctx, json) -> {
      long seconds = whole(json, "seconds", 0, (1L << 32) - 1);
      return engine.call(null, new Command.PauseTube(param(ctx, "tube"), seconds))
          .map(r -> expect(r, Reply.Word.PAUSED));
    });
    change(router, "/api/jobs/:id/kick", (ctx, json) -> engine.call(null, new Command.KickJob(jobId(param(ctx, "id"))))
        .map(r -> expect(r, Reply.Word.KICKED)));
    change(router, "/api/jobs/:id/delete", (ctx, json) -> engine.call(null, new Command.Delete(jobId(param(ctx, "id"))))
        .map(r -> expect(r, Reply.Word.DELETED)));
    get(router, "/api/tube-settings", ctx -> engine.tubeSettings(null, null).map(AdminApi::settingsTable));
    get(router, "/api/tube-settings/:tube", ctx -> {
      String tube = settingsName(param(ctx, "tube"));
      return engine.tubeSettings(tube, null).map(a -> settingsOf(tube, a));
    });
    post(router, "/api/tube-settings/:tube", (ctx, json) -> {
      String tube = settingsName(param(ctx, "tube"));
      TubeSettings settings;
      try {
        settings = TubeSettingsJson.fromJson("settings", json);
      } catch (IllegalArgumentException e) {
        throw new Refusal(400, "BAD_FORMAT", e.getMessage());
      }
      return engine.tubeSettings(tube, settings).map(a -> {
        if (!a.isChanged()) {
          throw new Refusal(409, "NOT_PRIMARY", "this node may not change tube settings now (a standby?)");
        }
        return settingsOf(tube, a);
      });
    });
    post(router, "/api/drain", (ctx, json) -> engine.drain(true).map(v -> new JsonObject().put("draining", true)));
    post(router, "/api/undrain", (ctx, json) -> engine.drain(false).map(v -> new JsonObject().put("draining", false)));
  }

  /**
   * The route on the path as it came: the router's normalisation would decode {@code %2E}, drop dot
   * segments and merge slashes, and the tubes "." and ".." are names the protocol allows.
   */
  static Route raw(Route route) {
    return route.useNormalizedPath(false);
  }

  static void get(Router router, String path, Function<RoutingContext, Future<JsonObject>> action) {
    raw(router.get(path)).handler(answer(action));
  }

  /**
   * A change of jobs or tubes: on a node of a replication group that is not its primary, refused
   * (409 NOT_PRIMARY) before it reaches the engine. A standby's jobs are its primary's, and its engine
   * refuses every change of its own too.
   */
  private void change(Router router, String path, BiFunction<RoutingContext, JsonObject, Future<JsonObject>> action) {
    post(router, path, (ctx, json) -> {
      String why = group.refusesChanges();
      if (why != null) {
        throw new Refusal(409, "NOT_PRIMARY", why);
      }
      return action.apply(ctx, json);
    });
  }

  private void post(Router router, String path, BiFunction<RoutingContext, JsonObject, Future<JsonObject>> action) {
    raw(router.post(path)).consumes("application/json").handler(body)
        .handler(answer(ctx -> action.apply(ctx, json(ctx))));
  }

  private static Handler<RoutingContext> answer(Function<RoutingContext, Future<JsonObject>> action) {
    return ctx -> Future.succeededFuture(ctx).compose(action).onComplete(r -> {
      if (r.succeeded()) {
        Responses.json(ctx.response(), 200, r.result());
      } else if (r.cause() instanceof Refusal refusal) {
        ctx.fail(refusal.status, refusal);
      } else {
        ctx.fail(503, new Refusal(503, "UNAVAILABLE", "the queue engine did not answer: " + r.cause().getMessage()));
      }
    });
  }

  /** A decoded path parameter; the router decodes invalid UTF-8 to U+FFFD, which no tube, id or state holds. */
  private static String param(RoutingContext ctx, String name) {
    String value = ctx.pathParam(name);
    if (value.indexOf('\uFFFD') >= 0) {
      throw new Refusal(400, "BAD_FORMAT", "the path is not valid percent-encoded UTF-8");
    }
    return value;
  }

  private static JsonObject json(RoutingContext ctx) {
    if (ctx.body().isEmpty()) {
      return new JsonObject();
    }
    try {
      return ctx.body().asJsonObject();
    } catch (DecodeException | ClassCastException e) {
      throw new Refusal(400, "BAD_FORMAT", "the body must be a JSON object");
    }
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

  /** The job a peek shows, with its stats-job facts and a preview of its body; job: null if none. */
  private Future<JsonObject> peek(String tube, Command peek) {
    return engine.call(tube, peek).compose(r -> {
      if (!(r instanceof Reply.JobBody job)) {
        return Future.succeededFuture(new JsonObject().putNull("job"));
      }
      return engine.call(null, new Command.StatsJob(job.id())).compose(stats -> {
        JsonObject facts = stats instanceof Reply.Stats d
            ? d.document().toJson() : new JsonObject().put("id", job.id());
        return engine.deadLetteredFrom(job.id()).map(from -> {
          if (!from.isEmpty()) {
            // Beside stats-job's keys, which stay 1.12's: why the job is buried.
            facts.put("deadLetter", new JsonObject().put("reason", "maxReserves").put("from", from));
          }
          return new JsonObject().put("job", BodyPreview.of(job.body()).addTo(facts));
        });
      });
    });
  }

  /**
   * {@code ?limit=&after=&before=&filter=&preview=}: a page of the tube's jobs in that state, after
   * or before a cursor, whose body holds the filter's UTF-8 bytes.
   */
  private static JobQuery jobQuery(RoutingContext ctx) {
    JobState state = switch (param(ctx, "state")) {
      case "ready" -> JobState.READY;
      case "delayed" -> JobState.DELAYED;
      case "reserved" -> JobState.RESERVED;
      case "buried" -> JobState.BURIED;
      default -> throw new Refusal(404, "NOT_FOUND", "list ready, delayed, reserved or buried jobs");
    };
    String limitText = query(ctx, "limit");
    long limit = DEFAULT_PAGE_JOBS;
    if (limitText != null) {
      try {
        limit = Long.parseLong(limitText);
      } catch (NumberFormatException e) {
        limit = -1;
      }
      if (limit < 1 || limit > MAX_PAGE_JOBS) {
        throw new Refusal(400, "BAD_FORMAT", "'limit' must be a whole number from 1 to " + MAX_PAGE_JOBS);
      }
    }
    JobCursor after = cursor(ctx, "after");
    JobCursor before = cursor(ctx, "before");
    if (after != null && before != null) {
      throw new Refusal(400, "BAD_FORMAT", "a page is 'after' a cursor or 'before' one, not both");
    }
    String filterText = query(ctx, "filter");
    byte[] filter = filterText == null || filterText.isEmpty() ? null : filterText.getBytes(StandardCharsets.UTF_8);
    if (filter != null && filter.length > MAX_FILTER_BYTES) {
      throw new Refusal(400, "BAD_FORMAT", "'filter' may hold at most " + MAX_FILTER_BYTES + " bytes");
    }
    String preview = query(ctx, "preview");
    if (preview != null && !preview.equals("true") && !preview.equals("false")) {
      throw new Refusal(400, "BAD_FORMAT", "'preview' is true or false");
    }
    int previewBytes = "false".equals(preview) ? 0 : BodyPreview.TEXT_BYTES;
    return new JobQuery(param(ctx, "tube"), state, after, before, (int) limit, filter, previewBytes);
  }

  private static JobCursor cursor(RoutingContext ctx, String name) {
    String text = query(ctx, name);
    if (text == null || text.isEmpty()) {
      return null;
    }
    try {
      return JobCursor.parse(text);
    } catch (IllegalArgumentException e) {
      throw new Refusal(400, "BAD_FORMAT", "'" + name + "' is a cursor from a page's next or previous");
    }
  }

  /** A query parameter given once, or null; given twice, a refusal. */
  private static String query(RoutingContext ctx, String name) {
    List<String> values = ctx.queryParam(name);
    if (values.size() > 1) {
      throw new Refusal(400, "BAD_FORMAT", "'" + name + "' is given more than once");
    }
    String value = values.isEmpty() ? null : values.get(0);
    if (value != null && value.indexOf('\uFFFD') >= 0) {
      throw new Refusal(400, "BAD_FORMAT", "the query is not valid percent-encoded UTF-8");
    }
    return value;
  }

  /** A tube name or "*", else a refusal. */
  private static String settingsName(String tube) {
    if (!TubeSettings.isTubeOrEveryTube(tube)) {
      throw new Refusal(400, "BAD_FORMAT", "not a valid tube name nor \"*\"");
    }
    return tube;
  }

  private static JsonObject settingsTable(TubeSettingsAnswer a) {
    JsonObject tubes = new JsonObject();
    a.table().forEach((name, settings) -> tubes.put(name, settings.toJson()));
    return new JsonObject().put("tubes", tubes);
  }

  private static JsonObject settingsOf(String tube, TubeSettingsAnswer a) {
    return new JsonObject().put("tube", tube).put("settings", a.own(tube).toJson())
        .put("effective", a.effective(tube).toJson());
  }

  private static JsonObject expect(Reply reply, Reply.Word success) {
    if (reply == success) {
      return new JsonObject();
    }
    throw new Refusal(reply instanceof Reply.Word w && w == Reply.Word.NOT_FOUND ? 404 : 409,
        reply instanceof Reply.Word w ? w.name() : "INTERNAL_ERROR", "the server answered " + reply);
  }

  /** The flush {@code ?state=} (or the body's {@code "state"}) names: ready, delayed, buried or all. */
  private static Command.Flush flush(RoutingContext ctx, JsonObject body) {
    String state = ctx.queryParams().get("state");
    Object inBody = body.getValue("state");
    if (state == null && inBody instanceof String s) {
      state = s;
    }
    Command.Flush flush = Command.Flush.named(state);
    if (flush == null) {
      throw new Refusal(400, "BAD_FORMAT", "flush needs state=ready, delayed, buried or all");
    }
    return flush;
  }

  private static long jobId(String text) {
    try {
      return Long.parseUnsignedLong(text);
    } catch (NumberFormatException e) {
      throw new Refusal(400, "BAD_FORMAT", "a job id is a whole number, got " + text);
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
    throw new Refusal(400, "BAD_FORMAT", "'" + key + "' must be a whole number from 0 to " + max);
  }
}
