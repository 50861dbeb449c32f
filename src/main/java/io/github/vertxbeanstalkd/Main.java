package io.github.vertxbeanstalkd;

import io.github.vertxbeanstalkd.config.ClusterTlsConfig;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.tcp.TlsCredentials;
import io.vertx.core.VertxException;
import io.vertx.core.json.JsonObject;
import io.vertx.launcher.application.ExitCodes;
import io.vertx.launcher.application.HookContext;
import io.vertx.launcher.application.VertxApplication;
import io.vertx.launcher.application.VertxApplicationHooks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Vert.x launcher with this server's defaults for Vert.x options, and the cluster's event-bus
 * TLS from {@code cluster.tls}. Every launcher option works ({@code -conf}, {@code --options}, {@code -cluster}, ...).
 */
public final class Main extends VertxApplication {
  private static final Logger log = LoggerFactory.getLogger(Main.class);

  private Main(String[] args, Hooks hooks) {
    // Exits here rather than in the launcher, to give a configuration error found before Vert.x
    // starts the same exit code as one found while deploying.
    super(args, hooks, true, false);
  }

  public static void main(String[] args) {
    ServerJson.useStreamingCodec();
    quietNettyAllocatorEvents();
    Hooks hooks = new Hooks();
    int status = new Main(args, hooks).launch();
    if (status != 0) {
      System.exit(hooks.isConfigRejected ? ExitCodes.VERTX_DEPLOYMENT : status);
    }
  }

  /**
   * Netty 4.2 describes its buffer allocations as JDK Flight Recorder events unless
   * {@code io.netty.jfr.enabled} is false. Asking whether such an event is enabled loads and
   * initializes the Flight Recorder's own machinery, which a start cache cannot hold (event classes
   * are instrumented at load): about 0.1 s, on the event loop, in the first client's first command.
   * The server describes itself through its metrics, so the launcher turns the events off; a
   * {@code -Dio.netty.jfr.enabled=true} on the command line still turns them on for a profiling run.
   */
  static void quietNettyAllocatorEvents() {
    if (System.getProperty("io.netty.jfr.enabled") == null) {
      System.setProperty("io.netty.jfr.enabled", "false");
    }
  }

  /** The version from the jar manifest, or "dev" when run from classes. */
  static String version() {
    String v = Main.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }

  private static final class Hooks implements VertxApplicationHooks {
    /** The metrics options this launcher added, while they may still be turned off. */
    private JsonObject defaultedMetrics;
    /** The cluster's event-bus TLS from the config, read before Vert.x starts. */
    private ClusterTlsConfig clusterTls = ClusterTlsConfig.off();
    /** A hook refused the configuration: the launcher's exit status 1 becomes 15, as in a deployment. */
    private volatile boolean isConfigRejected;

    /**
     * One event loop unless {@code --options} says otherwise: the engine and the TCP verticle then
     * share a thread, and a command's trip over the event bus and back costs no thread wake-up
     * (measured: about 3x the single-connection latency otherwise). Blocking work (the binlog's
     * writes and fsyncs) has threads of its own.
     */
    @Override
    public JsonObject afterVertxOptionsParsed(JsonObject vertxOptions) {
      JsonObject options = vertxOptions == null ? new JsonObject() : vertxOptions;
      if (!options.containsKey("eventLoopPoolSize")) {
        options.put("eventLoopPoolSize", 1);
      }
      // Netty's epoll transport (bundled for Linux x86_64) where available; NIO elsewhere.
      if (!options.containsKey("preferNativeTransport")) {
        options.put("preferNativeTransport", true);
      }
      // Vert.x's own vertx_* series in a Prometheus registry, which /metrics serves beside the
      // queue's beanstalkd_* series; metrics.enabled: false in the config turns both off.
      if (!options.containsKey("metricsOptions")) {
        options.put("metricsOptions", new JsonObject().put("enabled", true)
            .put("prometheusOptions", new JsonObject().put("enabled", true)));
        defaultedMetrics = options.getJsonObject("metricsOptions");
      }
      return options;
    }

    /**
     * Runs after the Vert.x options were read but before Vert.x starts: a config that turns metrics
     * off also turns off the Vert.x metrics the options above turned on by default.
     */
    @Override
    public JsonObject afterConfigParsed(JsonObject config) {
      if (defaultedMetrics != null && !ServerConfig.isMetricsEnabled(config, System.getenv())) {
        defaultedMetrics.put("enabled", false);
      }
      clusterTls = checked(() -> ServerConfig.clusterTls(config, System.getenv()));
      return config;
    }

    /**
     * With {@code cluster.tls}, the event bus between nodes runs TLS from its first connection: the
     * options are set here, after the launcher applied {@code -cluster-host} and the
     * {@code vertx.eventBus.options.*} properties and before the node joins the cluster.
     */
    @Override
    public void beforeStartingVertx(HookContext context) {
      if (clusterTls.isEnabled()) {
        TlsCredentials credentials = checked(() -> ClusterTls.load(clusterTls));
        checked(() -> {
          ClusterTls.applyTo(context.vertxOptions().getEventBusOptions(), credentials);
          return null;
        });
      }
    }

    @Override
    public void afterVertxStarted(HookContext context) {
      ClusterTls.logState(log, context.vertx(), context.vertxOptions().getEventBusOptions(), clusterTls);
    }

    /** Runs a check of the configuration; a refusal is logged in one line and stops the launch. */
    private <T> T checked(java.util.function.Supplier<T> check) {
      try {
        return check.get();
      } catch (IllegalArgumentException e) {
        log.error("start-up failed: {}", e.getMessage());
        isConfigRejected = true;
        throw new VertxException(e.getMessage(), true);
      }
    }

    /** One line that says why, for example which configuration key is wrong (exit code 15). */
    @Override
    public void afterFailureToDeployVerticle(HookContext context, Throwable t) {
      log.error("start-up failed: {}", t.getMessage());
    }

    @Override
    public void afterFailureToStartVertx(HookContext context, Throwable t) {
      log.error("Vert.x could not start: {}", t.getMessage());
    }

    @Override
    public void afterFailureToStopVertx(HookContext context, Throwable t) {
      log.error("Vert.x did not stop cleanly: {}", t.getMessage());
    }
  }
}
