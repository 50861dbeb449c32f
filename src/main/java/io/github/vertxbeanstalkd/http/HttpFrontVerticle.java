package io.github.vertxbeanstalkd.http;

import io.github.vertxbeanstalkd.bus.EngineAddress;
import io.github.vertxbeanstalkd.bus.GroupStatus;
import io.github.vertxbeanstalkd.config.HttpConfig;
import io.github.vertxbeanstalkd.metrics.ServerMetrics;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP front: {@code /metrics} (Prometheus text), {@code /healthz}, {@code /readyz}, the admin
 * page at {@code /} and its JSON API under {@code /api/}. It starts before the engine, so that
 * /readyz can say the binlog is being replayed.
 */
public final class HttpFrontVerticle extends VerticleBase {
  private static final Logger log = LoggerFactory.getLogger(HttpFrontVerticle.class);

  private final HttpConfig config;
  private final Readiness readiness;
  private final ServerMetrics metrics;
  private final EngineAddress address;
  private final GroupHealth group;
  private EngineCalls engine;
  private AdminApi api;
  private StaticFiles files;
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
    this.config = config;
    this.address = address;
    this.readiness = readiness;
    this.metrics = metrics;
    this.group = new GroupHealth(group);
  }

  @Override
  public Future<?> start() {
    engine = new EngineCalls(vertx, address);
    api = new AdminApi(engine, config.token());
    files = StaticFiles.load();
    server = vertx.createHttpServer(new HttpServerOptions().setHost(config.host()).setPort(config.port()))
        .requestHandler(this::route);
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

  private void route(HttpServerRequest request) {
    String path = request.path();
    if (path.startsWith("/api/")) {
      api.handle(request);
      return;
    }
    if (request.method() != HttpMethod.GET && request.method() != HttpMethod.HEAD) {
      Responses.error(request, 405, "METHOD_NOT_ALLOWED", "only GET here");
      return;
    }
    switch (path) {
      case "/metrics" -> metrics(request);
      case "/healthz" -> healthz(request);
      case "/readyz" -> readyz(request);
      default -> files.serve(request);
    }
  }

  private void metrics(HttpServerRequest request) {
    if (metrics == null) {
      Responses.error(request, 404, "NOT_FOUND", "metrics are off (metrics.enabled: false)");
      return;
    }
    // A fresh snapshot when the engine runs (while it replays, the last one), then the scrape,
    // which formats every series, on a worker thread rather than this event loop.
    engine.snapshot().transform(ignored -> vertx.executeBlocking(metrics::scrape, false))
        .onSuccess(text -> request.response().putHeader("content-type", "text/plain; version=0.0.4; charset=utf-8")
            .end(text))
        .onFailure(e -> Responses.error(request, 500, "INTERNAL_ERROR", String.valueOf(e.getMessage())));
  }

  private void healthz(HttpServerRequest request) {
    Readiness.Phase phase = readiness.phase();
    Responses.json(request, 200, group.addTo(new JsonObject().put("status", "ok")
        .put("phase", phase.name().toLowerCase())
        .put("reason", switch (phase) {
          case REPLAYING -> "the process is up and replaying its binlog";
          case SERVING -> "the process is up and serving";
          case STOPPING -> "the process is up and shutting down";
        })));
  }

  private void readyz(HttpServerRequest request) {
    switch (readiness.phase()) {
      case REPLAYING -> Responses.json(request, 503, notReady("replaying the binlog; not listening yet"));
      case STOPPING -> Responses.json(request, 503, notReady("shutting down"));
      case SERVING -> engine.snapshot().onComplete(r -> {
        String notServing = group.notServingReason();
        if (notServing != null) {
          Responses.json(request, 503, notReady(notServing));
        } else if (r.failed()) {
          Responses.json(request, 503, notReady("the queue engine does not answer: " + r.cause().getMessage()));
        } else if (r.result().isDraining()) {
          Responses.json(request, 503, notReady("draining: puts are refused (undrain to accept them again)"));
        } else {
          Responses.json(request, 200, group.addRoleTo(new JsonObject().put("ready", true)
              .put("reason", "listening on " + readiness.listening() + "; binlog replayed; not draining")));
        }
      });
    }
  }

  private JsonObject notReady(String reason) {
    return group.addRoleTo(new JsonObject().put("ready", false).put("reason", reason));
  }
}
