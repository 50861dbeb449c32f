package io.github.vertxbeanstalkd;

import io.github.vertxbeanstalkd.api.BusFrontVerticle;
import io.github.vertxbeanstalkd.bus.ConnectionRouting;
import io.github.vertxbeanstalkd.bus.EngineAddress;
import io.github.vertxbeanstalkd.bus.EngineRequest;
import io.github.vertxbeanstalkd.cluster.GroupMembers;
import io.github.vertxbeanstalkd.cluster.GroupStatus;
import io.github.vertxbeanstalkd.bus.LocalCodec;
import io.github.vertxbeanstalkd.config.BinlogSection;
import io.github.vertxbeanstalkd.config.FsyncSetting;
import io.github.vertxbeanstalkd.config.HeapBudget;
import io.github.vertxbeanstalkd.config.ListenerConfig;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.engine.Clock;
import io.github.vertxbeanstalkd.engine.EngineOptions;
import io.github.vertxbeanstalkd.engine.QueueEngineVerticle;
import io.github.vertxbeanstalkd.engine.EngineObserver;
import io.github.vertxbeanstalkd.cluster.GroupState;
import io.github.vertxbeanstalkd.replication.forwarding.Forwarding;
import io.github.vertxbeanstalkd.replication.forwarding.PrimaryRoute;
import io.github.vertxbeanstalkd.replication.shipping.OwnStream;
import io.github.vertxbeanstalkd.replication.ReplicationNode;
import io.github.vertxbeanstalkd.engine.ServerInfo;
import io.github.vertxbeanstalkd.http.HttpFrontVerticle;
import io.github.vertxbeanstalkd.http.Readiness;
import io.github.vertxbeanstalkd.metrics.CommandDurations;
import io.github.vertxbeanstalkd.metrics.ServerMetrics;
import io.github.vertxbeanstalkd.persistence.BinlogConfig;
import io.github.vertxbeanstalkd.persistence.FsyncPolicy;
import io.github.vertxbeanstalkd.tcp.TcpServerVerticle;
import io.github.vertxbeanstalkd.tcp.TlsCredentials;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxException;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A whole server deployed into a Vert.x instance (one queue engine, the TCP front, the event-bus
 * front), and the handle to it: its port, drain and undrain, and close. Several servers may live
 * in one Vert.x; each has its own internal addresses, and each needs its own public address.
 *
 * <pre>{@code
 * BeanstalkServer.deploy(vertx, new JsonObject().put("port", 0).put("eventBus", new JsonObject().put("address", "jobs")))
 *     .onSuccess(server -> System.out.println("beanstalkd protocol on port " + server.port()));
 * }</pre>
 */
public final class BeanstalkServer {
  private static final Logger log = LoggerFactory.getLogger(BeanstalkServer.class);

  private final Vertx vertx;
  private final ServerConfig config;
  private final EngineAddress address;
  private final List<String> deploymentIds;
  private final ServingFronts fronts;
  private final HttpFrontVerticle http;
  private final Readiness readiness;
  private final ServerMetrics metrics;

  private BeanstalkServer(Vertx vertx, ServerConfig config, EngineAddress address, List<String> deploymentIds,
      ServingFronts fronts, HttpFrontVerticle http, Readiness readiness, ServerMetrics metrics) {
    this.vertx = vertx;
    this.config = config;
    this.address = address;
    this.deploymentIds = deploymentIds;
    this.fronts = fronts;
    this.http = http;
    this.readiness = readiness;
    this.metrics = metrics;
  }

  /**
   * Deploys a server configured by {@code config}: the keys of the JSON configuration file, over
   * the built-in defaults (environment variables are read only by the launcher). Fails with a
   * one-line message naming the key when a value is invalid.
   */
  public static Future<BeanstalkServer> deploy(Vertx vertx, JsonObject config) {
    ServerConfig parsed;
    try {
      parsed = ServerConfig.fromJson(config == null ? new JsonObject() : config);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(new VertxException(e.getMessage(), true));
    }
    return deploy(vertx, parsed);
  }

  /**
   * Deploys a server with a validated configuration: the TLS files are read and checked first (a bad
   * one fails the start before a binlog is replayed), then the HTTP front (so /readyz can say the
   * binlog is being replayed), then the engine, which replays the binlog, then the protocol fronts.
   */
  public static Future<BeanstalkServer> deploy(Vertx vertx, ServerConfig config) {
    return deploy(vertx, config, Clock.system());
  }

  /**
   * As {@link #deploy(Vertx, ServerConfig)}, with the engine on {@code clock}: its delays, TTRs,
   * reserve timeouts and the ages in stats and metrics. A test's way to let time pass on demand.
   */
  public static Future<BeanstalkServer> deploy(Vertx vertx, ServerConfig config, Clock clock) {
    return deploy(vertx, config, clock, (GroupStatus) null);
  }

  /**
   * As {@link #deploy(Vertx, ServerConfig, Clock)}, for a node of a replication group: /healthz,
   * /readyz and the metrics report where {@code group} says it stands.
   *
   * @param group written by the replication layer; null when the node is not replicated
   */
  public static Future<BeanstalkServer> deploy(Vertx vertx, ServerConfig config, Clock clock, GroupStatus group) {
    if (!config.tls().isEnabled() && !config.hasTlsListeners()) {
      return deploy(vertx, config, clock, null, group);
    }
    return vertx.executeBlocking(() -> TlsCredentials.load(vertx, config.tls()))
        .recover(e -> Future.failedFuture(new VertxException(e.getMessage(), true)))
        .compose(tls -> deploy(vertx, config, clock, tls, group));
  }

  private static Future<BeanstalkServer> deploy(Vertx vertx, ServerConfig config, Clock clock,
      TlsCredentials tlsCredentials, GroupStatus given) {
    GroupStatus group = given == null && config.replication().isEnabled() ? new GroupStatus() : given;
    if (group != null && group.state() == null && config.replication().isEnabled()) {
      // From the first /healthz on, a node of a group says where it stands: not caught up yet.
      group.set(new GroupState(GroupState.SYNCING, 0, 0, false, 0, true, 0, false));
    }
    LocalCodec.registerAll(vertx);
    EngineAddress address = EngineAddress.unique();
    List<String> ids = new ArrayList<>();
    Readiness readiness = new Readiness();
    boolean isReplicated = config.replication().isEnabled();
    // A replicated node's TCP connections run on whichever node is the group's primary.
    PrimaryRoute route = isReplicated ? new PrimaryRoute() : null;
    Forwarding forwarding = isReplicated ? new Forwarding(route, config.replication().group()) : null;
    ConnectionRouting routing = forwarding == null ? ConnectionRouting.LOCAL : forwarding;
    ServerMetrics metrics = config.isMetricsEnabled() ? ServerMetrics.create(config.binlog().isEnabled(), group,
        forwarding == null ? null : forwarding::commandsAwaitingReply) : null;
    CommandDurations durations = metrics == null ? CommandDurations.NONE : metrics.commandDurations();
    ServingFronts fronts = new ServingFronts(vertx, config, address, durations, tlsCredentials, routing);
    // The group's nodes for the admin page; each names where it serves the protocol and its page.
    AtomicReference<HttpFrontVerticle> page = new AtomicReference<>();
    GroupMembers members = isReplicated ? new GroupMembers(config.replication().group(), group,
        () -> readiness.listening() + (page.get() == null ? "" : "; admin page on "
            + ListenerConfig.tcp(config.http().host(), 0).describe(page.get().actualPort()))) : null;
    HttpFrontVerticle http = config.http().isEnabled()
        ? new HttpFrontVerticle(config.http(), address, readiness, metrics, group, members) : null;
    page.set(http);
    Future<?> deployed = Future.succeededFuture();
    if (http != null) {
      deployed = vertx.deployVerticle(http).onSuccess(ids::add);
    }
    // Before the engine opens the log: what this node wrote as primary before it stopped.
    Future<OwnStream> claimed = isReplicated
        ? deployed.compose(v -> vertx.executeBlocking(() -> OwnStream.claim(config.binlog().dir())))
        : deployed.map(v -> (OwnStream) null);
    deployed = claimed;
    Future<ServerInfo> gathered = deployed.compose(v -> vertx.executeBlocking(ServerInfo::gather));
    deployed = gathered
        .compose(info -> vertx.deployVerticle(new QueueEngineVerticle(address, engineOptions(config, info).withTubeSettings(config.tubes(), isReplicated),
            metrics == null ? EngineObserver.NONE : metrics, clock)))
        .onSuccess(ids::add);
    if (isReplicated) {
      // Every node's port serves the queue from the start; the group decides which node's engine
      // runs the connections' sessions, and opens the event-bus address on the primary only.
      deployed = deployed.compose(v -> fronts.openListeners()).onSuccess(id -> {
        if (id != null) {
          ids.add(id);
        }
      });
      deployed = deployed.compose(v -> vertx.deployVerticle(members)).onSuccess(ids::add);
      deployed = deployed.compose(v -> vertx.deployVerticle(new ReplicationNode(config.replication(), address, group,
              fronts, route, config.binlog().dir(), metrics == null ? nanos -> {} : metrics::recordAck, claimed.result())))
          .onSuccess(ids::add);
    } else {
      deployed = deployed.compose(v -> fronts.open());
    }
    return deployed
        .map(v -> {
          BeanstalkServer server = new BeanstalkServer(vertx, config, address, ids, fronts, http, readiness, metrics);
          readiness.serving(server.listeners());
          return server;
        })
        .recover(failure -> fronts.close().transform(c -> undeploy(vertx, ids))
            .transform(v -> Future.failedFuture(failure)));
  }

  /** The binlog's settings in the persistence layer's terms, from the validated {@code binlog} section. */
  /** The engine's settings: the config's, and the heap's shares for what the engine holds on it. */
  static EngineOptions engineOptions(ServerConfig config, ServerInfo info) {
    long maxHeapBytes = Runtime.getRuntime().maxMemory();
    return EngineOptions.of(info, config.maxJobSizeBytes(), binlogConfig(config.binlog()))
        .withMaxMemory(config.maxMemoryBytes())
        .withMaxHeldState(HeapBudget.heldStateHeapBytes(maxHeapBytes))
        .withCopiesInTransit(HeapBudget.copiesInTransitHeapBytes(maxHeapBytes));
  }

  static BinlogConfig binlogConfig(BinlogSection section) {
    FsyncSetting fsync = section.fsync();
    FsyncPolicy policy = switch (fsync.mode()) {
      case ALWAYS -> new FsyncPolicy.Always();
      case INTERVAL -> new FsyncPolicy.Interval(fsync.intervalMillis());
      case NEVER -> new FsyncPolicy.Never();
    };
    return new BinlogConfig(section.dir(), policy, section.segmentSizeBytes(), section.isRecoverRequested());
  }

  /** The TCP port bound (the configured one, or the one picked for port 0); -1 without TCP. */
  public int port() {
    TcpServerVerticle tcp = fronts.tcp();
    return tcp == null ? -1 : tcp.actualPort();
  }

  /** The TLS port bound (the configured one, or the one picked for port 0); -1 without TLS. */
  public int tlsPort() {
    TcpServerVerticle tcp = fronts.tcp();
    return tcp == null ? -1 : tcp.actualTlsPort();
  }

  /** The listeners of {@link ServerConfig#listeners()} as bound ("[::1]:11300", "unix:/run/b.sock (TLS)"). */
  public List<String> moreListening() {
    TcpServerVerticle tcp = fronts.tcp();
    return tcp == null ? List.of() : tcp.moreListening();
  }

  /** The port bound for listener {@code i} of {@link ServerConfig#listeners()}; -1 for a unix socket. */
  public int listenerPort(int i) {
    return fronts.tcp().actualPort(i);
  }

  /** Where the protocol is served, for /readyz and the start-up log. */
  public String listening() {
    List<String> where = listeners();
    return where.isEmpty() ? "the event bus only" : String.join(" and ", where);
  }

  /** Every protocol listener as bound: the short form's, its TLS one, then {@link #moreListening()}. */
  public List<String> listeners() {
    List<String> where = new ArrayList<>();
    if (port() >= 0) {
      where.add(ListenerConfig.tcp(config.host(), 0).describe(port()));
    }
    if (tlsPort() >= 0) {
      where.add(ListenerConfig.tcp(config.tls().host(), 0).withTls().describe(tlsPort()));
    }
    where.addAll(moreListening());
    return where;
  }

  /** The HTTP port bound (metrics, health, admin page); -1 without the HTTP listener. */
  public int httpPort() {
    return http == null ? -1 : http.actualPort();
  }

  /** The registry of this server's {@code beanstalkd_*} series, or null when metrics are off. */
  public ServerMetrics metrics() {
    return metrics;
  }

  /**
   * The internal addresses of this server's engine, for a front of your own: start a
   * {@link io.github.vertxbeanstalkd.bus.EngineClient} on it from the front's verticle.
   */
  public EngineAddress engineAddress() {
    return address;
  }

  /** The public event-bus address, or null when the event-bus front is off. */
  public String eventBusAddress() {
    return config.eventBus().isEnabled() ? config.eventBus().address() : null;
  }

  public ServerConfig config() {
    return config;
  }

  /** Drain mode, as SIGUSR1: every put that would be stored answers DRAINING until {@link #undrain()}. */
  public Future<Void> drain() {
    return setDraining(true);
  }

  /** Leaves drain mode: puts are accepted again. */
  public Future<Void> undrain() {
    return setDraining(false);
  }

  /** Undeploys the server: the listener closes, the binlog is flushed and closed. */
  public Future<Void> close() {
    readiness.stopping();
    return fronts.close().transform(v -> undeploy(vertx, deploymentIds));
  }

  /**
   * Stops gracefully, as on SIGTERM: /readyz turns 503, the TCP and TLS listeners stop accepting, each
   * connection's commands already with the engine are answered and written before it closes (a
   * reserve waiting for a job is not waited for), then everything is undeployed and the binlog
   * flushed and closed. Connections still open after {@code graceMillis} are closed.
   */
  public Future<Void> shutdown(long graceMillis) {
    long startedNanos = System.nanoTime();
    readiness.stopping();
    TcpServerVerticle tcp = fronts.tcp();
    Future<Integer> closed = tcp == null ? Future.succeededFuture(0) : tcp.shutdown(graceMillis);
    return closed.compose(open -> {
      long connectionsMillis = (System.nanoTime() - startedNanos) / 1_000_000;
      return fronts.close().transform(c -> undeploy(vertx, deploymentIds)).onSuccess(v -> log.info(
          "shutdown: stopped accepting, {} connection(s) finished their replies and closed in {} ms; {}; "
              + "took {} ms", open, connectionsMillis,
          config.binlog().isEnabled() ? "binlog flushed, fsynced and closed" : "no binlog (jobs were in memory)",
          (System.nanoTime() - startedNanos) / 1_000_000));
    });
  }

  private Future<Void> setDraining(boolean isDraining) {
    return vertx.eventBus().request(address.requests(), new EngineRequest.Drain(isDraining)).mapEmpty();
  }

  /** Undeploys in reverse order: the fronts stop before the engine they feed. */
  static Future<Void> undeploy(Vertx vertx, List<String> ids) {
    Future<Void> done = Future.succeededFuture();
    for (int i = ids.size() - 1; i >= 0; i--) {
      String id = ids.get(i);
      done = done.compose(v -> vertx.undeploy(id));
    }
    return done.onComplete(v -> ids.clear());
  }
}
