package io.github.vertxbeanstalkd.http;

import io.github.vertxbeanstalkd.bus.EngineAddress;
import io.github.vertxbeanstalkd.cluster.GroupMembers;
import io.github.vertxbeanstalkd.cluster.GroupStatus;
import io.github.vertxbeanstalkd.config.HttpConfig;
import io.github.vertxbeanstalkd.metrics.ServerMetrics;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.StaticHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP front: {@code /metrics} (Prometheus text), {@code /healthz}, {@code /readyz}, the admin
 * page at {@code /} and its JSON API under {@code /api/}. It starts before the engine, so that
 * /readyz can say the binlog is being replayed.
 */
public final class HttpFrontVerticle extends VerticleBase {
  /**
   * Where the page's files are in the jar. Vert.x looks for a relative path in the working directory
   * before the class path, so the path is the package's own: no stray folder can stand in for it.
   */
  static final String WEB_ROOT = "io/github/vertxbeanstalkd/http/admin";
  /** uPlot's files in its webjar (a dependency of the jar): the dashboard's charts, served at /uplot/. */
  static final String UPLOT_ROOT = "META-INF/resources/webjars/uplot/1.6.30/dist";
  private static final Logger log = LoggerFactory.getLogger(HttpFrontVerticle.class);

  private final HttpConfig config;
  private final Readiness readiness;
  private final ServerMetrics metrics;
  private final EngineAddress address;
  private final GroupHealth group;
  /** Null when the node is not replicated. */
  private final GroupMembers members;
  private EngineCalls engine;
  private HttpServer server;

  /** @param metrics null when metrics are off: /metrics then answers 404 */
  public HttpFrontVerticle(HttpConfig config, EngineAddress address, Readiness readiness, ServerMetrics metrics) {
    this(config, address, readiness, metrics, null);
  }

  /**
   * @param metrics null when metrics are off: /metrics then answers 404
   * @param group null when the node is not replicated: /healthz and /readyz then say nothing of a group
   */
  public HttpFrontVerticle(HttpConfig config, EngineAddress address, Readiness readiness, ServerMetrics metrics,
      GroupStatus group) {
    this(config, address, readiness, metrics, group, null);
  }

  /**
   * @param metrics null when metrics are off: /metrics then answers 404
   * @param group null when the node is not replicated: /healthz and /readyz then say nothing of a group
   * @param members the group's nodes for the admin page's dashboard; null when the node is not replicated
   */
  public HttpFrontVerticle(HttpConfig config, EngineAddress address, Readiness readiness, ServerMetrics metrics,
      GroupStatus group, GroupMembers members) {
    this.config = config;
    this.address = address;
    this.readiness = readiness;
    this.metrics = metrics;
    this.group = new GroupHealth(group);
    this.members = members;
  }

  @Override
  public Future<?> start() {
    engine = new EngineCalls(vertx, address);
    server = vertx.createHttpServer(new HttpServerOptions().setHost(config.host()).setPort(config.port()))
        .requestHandler(router());
    return engine.start().compose(v -> server.listen())
        .onSuccess(s -> log.info("HTTP on {}:{}: /metrics /healthz /readyz, admin page at /{}", config.host(),
            s.actualPort(), config.hasToken() ? " (API token required)" : ""));
  }

  @Override
  public Future<?> stop() {
    return server.close().compose(v -> engine.stop());
  }

  /** The bound port, useful when the configured port was 0. */
  public int actualPort() {
    return server.actualPort();
  }

  private Router router() {
    Router router = Router.router(vertx);
    ErrorReplies.install(router);
    if (config.hasToken()) {
      // Before anything else under /api/, so that without the token no call learns anything.
      AdminApi.raw(router.routeWithRegex("/api/.*")).handler(new BearerToken(config.token()));
    }
    // The router takes "/healthz/" for "/healthz"; the paths stay exact, so a trailing slash names nothing.
    AdminApi.raw(router.routeWithRegex(".+/")).handler(ctx -> ctx.fail(isRead(ctx) ? 404 : 405));
    new AdminApi(engine, group).addRoutes(router);
    new DashboardApi(engine, members).addRoutes(router);
    read(router, "/metrics", this::metrics);
    read(router, "/healthz", this::healthz);
    read(router, "/readyz", this::readyz);
    // The chart library from its webjar, so the page needs no network beyond this server.
    router.route("/uplot/*").method(HttpMethod.GET).method(HttpMethod.HEAD).handler(HttpFrontVerticle::pageHeaders)
        .handler(StaticHandler.create(UPLOT_ROOT).setDirectoryListing(false));
    // The page's files from the jar, index.html at /; no listing. Any other method: 405.
    router.route("/*").method(HttpMethod.GET).method(HttpMethod.HEAD).handler(HttpFrontVerticle::pageHeaders)
        .handler(StaticHandler.create(WEB_ROOT).setDirectoryListing(false));
    return router;
  }

  private static void read(Router router, String path, Handler<RoutingContext> handler) {
    AdminApi.raw(router.route(path)).method(HttpMethod.GET).method(HttpMethod.HEAD).handler(handler);
  }

  private static boolean isRead(RoutingContext ctx) {
    return ctx.request().method() == HttpMethod.GET || ctx.request().method() == HttpMethod.HEAD;
  }

  /** The page's own headers, on its files only (not on a 404's JSON), set last so they win over StaticHandler's. */
  private static void pageHeaders(RoutingContext ctx) {
    ctx.addHeadersEndHandler(v -> {
      if (ctx.response().getStatusCode() < 400) {
        // The page is a few KiB: ask again each time (a 304 when unchanged), so an upgrade is seen at once.
        ctx.response().putHeader("cache-control", "no-cache")
            .putHeader("x-content-type-options", "nosniff")
            .putHeader("content-security-policy", "default-src 'self'");
      }
    });
    ctx.next();
  }

  private void metrics(RoutingContext ctx) {
    if (metrics == null) {
      Responses.error(ctx.response(), 404, "NOT_FOUND", "metrics are off (metrics.enabled: false)");
      return;
    }
    // A fresh snapshot when the engine runs (while it replays, the last one), then the scrape,
    // which formats every series, on a worker thread rather than this event loop.
    engine.snapshot().transform(ignored -> vertx.executeBlocking(metrics::scrape, false))
        .onSuccess(text -> ctx.response().putHeader("content-type", "text/plain; version=0.0.4; charset=utf-8")
            .end(text))
        .onFailure(ctx::fail);
  }

  private void healthz(RoutingContext ctx) {
    Readiness.Phase phase = readiness.phase();
    Responses.json(ctx.response(), 200, group.addTo(new JsonObject().put("status", "ok")
        .put("phase", phase.name().toLowerCase())
        .put("listeners", new JsonArray(readiness.listeners()))
        .put("reason", switch (phase) {
          case REPLAYING -> "the process is up and replaying its binlog";
          case SERVING -> "the process is up and serving";
          case STOPPING -> "the process is up and shutting down";
        })));
  }

  private void readyz(RoutingContext ctx) {
    switch (readiness.phase()) {
      case REPLAYING -> Responses.json(ctx.response(), 503, notReady("replaying the binlog; not listening yet"));
      case STOPPING -> Responses.json(ctx.response(), 503, notReady("shutting down"));
      case SERVING -> engine.snapshot().onComplete(r -> {
        String notServing = group.notServingReason();
        if (notServing != null) {
          Responses.json(ctx.response(), 503, notReady(notServing));
        } else if (r.failed()) {
          Responses.json(ctx.response(), 503, notReady("the queue engine does not answer: " + r.cause().getMessage()));
        } else if (r.result().isDraining()) {
          Responses.json(ctx.response(), 503, notReady("draining: puts are refused (undrain to accept them again)"));
        } else {
          Responses.json(ctx.response(), 200, group.addRoleTo(new JsonObject().put("ready", true)
              .put("reason", "listening on " + readiness.listening() + "; binlog replayed; not draining"
                  + group.servingNote())));
        }
      });
    }
  }

  private JsonObject notReady(String reason) {
    return group.addRoleTo(new JsonObject().put("ready", false).put("reason", reason));
  }
}
