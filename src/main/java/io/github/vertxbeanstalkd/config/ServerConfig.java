package io.github.vertxbeanstalkd.config;

import io.github.vertxbeanstalkd.protocol.TubeSettings;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The server's settings, validated. Read from the JSON config (launcher {@code -conf}), where the
 * environment variables of {@link #ENVIRONMENT} override the file.
 *
 * @param replication the {@code replication} section: off unless the node joins a group
 * @param listeners the {@code listeners} list: addresses served besides {@code host}/{@code port}
 *     and {@code tls.port}, TCP (IPv4 or IPv6) or unix domain sockets, plain or TLS
 * @param tubes the {@code tubes} section: settings by tube name, {@code "*"} for every tube's defaults
 * @see <a href="{@docRoot}/../spec/BEHAVIOURS.html">BEHAVIOURS.md</a>
 */
public record ServerConfig(String host, int port, int maxJobSizeBytes, BinlogSection binlog, boolean isTcpEnabled,
    EventBusConfig eventBus, HttpConfig http, boolean isMetricsEnabled,
    long shutdownGraceMillis, int maxConnections, long maxMemoryBytes, TlsConfig tls,
    ReplicationConfig replication, List<ListenerConfig> listeners, Map<String, TubeSettings> tubes) {
  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final int DEFAULT_PORT = 11300;
  /** BEHAVIOURS.md 4: 2^16 - 1, inclusive. */
  public static final int DEFAULT_MAX_JOB_SIZE = 65_535;
  /** beanstalkd's own ceiling for -z. */
  public static final int MAX_JOB_SIZE_LIMIT = 1 << 30;
  /** How long a SIGTERM waits for replies in flight and the binlog's last fsync. */
  public static final long DEFAULT_SHUTDOWN_GRACE_MILLIS = 10_000;

  /** Environment variable to config key. */
  public static final Map<String, String> ENVIRONMENT = Map.of(
      "BEANSTALKD_HOST", "host",
      "BEANSTALKD_PORT", "port",
      "BEANSTALKD_MAX_JOB_SIZE", "maxJobSize",
      "BEANSTALKD_SHUTDOWN_GRACE_MILLIS", "shutdownGraceMillis",
      "BEANSTALKD_MAX_CONNECTIONS", "maxConnections",
      "BEANSTALKD_MAX_MEMORY", "maxMemory");

  private static final Set<String> KEYS =
      Set.of("host", "port", "maxJobSize", "shutdownGraceMillis", "maxConnections", "maxMemory");
  private static final Set<String> TCP_KEYS = Set.of("enabled");
  private static final Map<String, String> TCP_ENVIRONMENT = Map.of("BEANSTALKD_TCP_ENABLED", "tcp.enabled");
  private static final Set<String> METRICS_KEYS = Set.of("enabled");
  private static final Map<String, String> METRICS_ENVIRONMENT =
      Map.of("BEANSTALKD_METRICS_ENABLED", "metrics.enabled");
  /** Keys read by the sections, for the unknown-key check. */
  private static final Set<String> SECTION_KEYS = sectionKeys();

  /**
   * Jobs in memory only, both protocol fronts on, the default event-bus address, no HTTP listener.
   */
  public ServerConfig(String host, int port, int maxJobSizeBytes) {
    this(host, port, maxJobSizeBytes, BinlogSection.inMemory());
  }

  public ServerConfig(String host, int port, int maxJobSizeBytes, BinlogSection binlog) {
    this(host, port, maxJobSizeBytes, binlog, true, EventBusConfig.defaults(), HttpConfig.off(), true,
        DEFAULT_SHUTDOWN_GRACE_MILLIS, HeapBudget.defaultMaxConnections(), 0, TlsConfig.off(), ReplicationConfig.off(),
        List.of(), Map.of());
  }

  /** The launcher's defaults: every listener on, on loopback. */
  public static ServerConfig defaults() {
    return new ServerConfig(DEFAULT_HOST, DEFAULT_PORT, DEFAULT_MAX_JOB_SIZE)
        .withHttp(new HttpConfig(true, DEFAULT_HOST, HttpConfig.DEFAULT_PORT, null));
  }

  /** Every environment variable the configuration reads. */
  public static Set<String> environmentVariables() {
    Set<String> all = new java.util.TreeSet<>(ENVIRONMENT.keySet());
    all.addAll(BinlogSection.ENVIRONMENT.keySet());
    all.addAll(TCP_ENVIRONMENT.keySet());
    all.addAll(EventBusConfig.ENVIRONMENT.keySet());
    all.addAll(HttpConfig.ENVIRONMENT.keySet());
    all.addAll(METRICS_ENVIRONMENT.keySet());
    all.addAll(TlsConfig.ENVIRONMENT.keySet());
    all.addAll(ReplicationConfig.ENVIRONMENT.keySet());
    all.addAll(ClusterTlsConfig.ENVIRONMENT.keySet());
    return all;
  }

  /** Loopback, an ephemeral port, default limits. */
  public static ServerConfig forTests() {
    return new ServerConfig(DEFAULT_HOST, 0, DEFAULT_MAX_JOB_SIZE);
  }

  public ServerConfig withMaxJobSize(int bytes) {
    return with(c -> c.maxJobSizeBytes = bytes);
  }

  public ServerConfig withBinlog(BinlogSection config) {
    return with(c -> c.binlog = config);
  }

  /** Without the plain TCP listener: the queue is reached through the event bus, and TLS if it is on. */
  public ServerConfig withoutTcp() {
    return with(c -> c.isTcpEnabled = false);
  }

  public ServerConfig withEventBus(EventBusConfig config) {
    return with(c -> c.eventBus = config);
  }

  public ServerConfig withHttp(HttpConfig config) {
    return with(c -> c.http = config);
  }

  /** @param bytes the cap on what the queue holds; 0 for the default share of the job store's limit */
  public ServerConfig withMaxMemory(long bytes) {
    return with(c -> c.maxMemoryBytes = bytes);
  }

  /**
   * With these listeners besides the short form's (see {@link ListenerConfig}); a TLS one needs the
   * certificate of {@link #withTls}.
   */
  public ServerConfig withListeners(List<ListenerConfig> more) {
    return with(c -> c.listeners = List.copyOf(more));
  }

  /** With these tube settings (see {@link TubeSettings}); {@code "*"} holds every tube's defaults. */
  public ServerConfig withTubes(Map<String, TubeSettings> settings) {
    return with(c -> c.tubes = Map.copyOf(settings));
  }

  /** True when a listener of {@link #listeners()} is encrypted. */
  public boolean hasTlsListeners() {
    return listeners.stream().anyMatch(ListenerConfig::isTls);
  }

  /** With the TLS listener {@code config} describes, beside the TCP one (or instead: see {@link #withoutTcp()}). */
  public ServerConfig withTls(TlsConfig config) {
    return with(c -> c.tls = config);
  }

  /**
   * As a member of a replication group; {@code config.group()} is taken as given (only
   * {@link #fromJson} defaults it to {@code eventBus.address}). A member needs a binlog: deploying
   * checks it.
   */
  public ServerConfig withReplication(ReplicationConfig config) {
    return with(c -> c.replication = config);
  }

  public ServerConfig withMaxConnections(int max) {
    return with(c -> c.maxConnections = max);
  }

  /** Without the queue's own series and the per-command timing. */
  public ServerConfig withoutMetrics() {
    return with(c -> c.isMetricsEnabled = false);
  }

  /** A copy with one change: the record's fields, writable, for the withers above. */
  private static final class Copy {
    String host;
    int port;
    int maxJobSizeBytes;
    BinlogSection binlog;
    boolean isTcpEnabled;
    EventBusConfig eventBus;
    HttpConfig http;
    boolean isMetricsEnabled;
    long shutdownGraceMillis;
    int maxConnections;
    long maxMemoryBytes;
    TlsConfig tls;
    ReplicationConfig replication;
    List<ListenerConfig> listeners;
    Map<String, TubeSettings> tubes;
  }

  private ServerConfig with(java.util.function.Consumer<Copy> change) {
    Copy c = new Copy();
    c.host = host;
    c.port = port;
    c.maxJobSizeBytes = maxJobSizeBytes;
    c.binlog = binlog;
    c.isTcpEnabled = isTcpEnabled;
    c.eventBus = eventBus;
    c.http = http;
    c.isMetricsEnabled = isMetricsEnabled;
    c.shutdownGraceMillis = shutdownGraceMillis;
    c.maxConnections = maxConnections;
    c.maxMemoryBytes = maxMemoryBytes;
    c.tls = tls;
    c.replication = replication;
    c.listeners = listeners;
    c.tubes = tubes;
    change.accept(c);
    return new ServerConfig(c.host, c.port, c.maxJobSizeBytes, c.binlog, c.isTcpEnabled,
        c.eventBus, c.http, c.isMetricsEnabled, c.shutdownGraceMillis, c.maxConnections, c.maxMemoryBytes, c.tls,
        c.replication, c.listeners, c.tubes);
  }

  /** The defaults as JSON, the lowest layer of the configuration. */
  public JsonObject toJson() {
    return new JsonObject().put("host", host).put("port", port).put("maxJobSize", maxJobSizeBytes)
        .put("shutdownGraceMillis", shutdownGraceMillis).put("maxConnections", maxConnections);
  }

  /**
   * Validates merged configuration; environment keys (already merged by vertx-config) win.
   *
   * @throws IllegalArgumentException with a one-line message naming the offending key
   */
  public static ServerConfig fromJson(JsonObject json) {
    Map<String, Object> merged = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : json) {
      if (KEYS.contains(e.getKey())) {
        merged.put(e.getKey(), e.getValue());
      } else if (!ENVIRONMENT.containsKey(e.getKey()) && !SECTION_KEYS.contains(e.getKey())
          && !isIgnorable(e.getKey())) {
        throw new IllegalArgumentException("config: unknown key '" + ConfigSection.shown(e.getKey()) + "'");
      }
    }
    ENVIRONMENT.forEach((env, key) -> {
      if (json.containsKey(env)) {
        merged.put(key, json.getValue(env));
      }
    });
    ServerConfig d = defaults();
    String host = ListenerConfig.bare(text(merged, "host", d.host()));
    int port = (int) number(merged, "port", d.port(), 0, 65_535);
    int maxJobSize = (int) number(merged, "maxJobSize", d.maxJobSizeBytes(), 0, MAX_JOB_SIZE_LIMIT);
    long graceMillis = number(merged, "shutdownGraceMillis", d.shutdownGraceMillis(), 0, 600_000);
    int maxConnections = (int) number(merged, "maxConnections", d.maxConnections(), 1, Integer.MAX_VALUE);
    long maxMemory = number(merged, "maxMemory", 0, 0, Long.MAX_VALUE);
    ConfigSection tcp = new ConfigSection("tcp", TCP_KEYS, TCP_ENVIRONMENT, json);
    boolean isMetricsEnabled = metricsFlag(json);
    BinlogSection binlog = BinlogSection.fromJson(json);
    EventBusConfig eventBus = EventBusConfig.fromJson(json);
    // Read by the launcher before Vert.x starts (see clusterTls); checked here too, so that a wrong
    // key fails an embedded start as well.
    ClusterTlsConfig.fromJson(json);
    List<ListenerConfig> listeners = ListenerConfig.fromJson(json, host);
    boolean hasTlsListeners = listeners.stream().anyMatch(ListenerConfig::isTls);
    return new ServerConfig(host, port, maxJobSize, binlog, tcp.flag("enabled", true),
        eventBus, HttpConfig.fromJson(json, host), isMetricsEnabled,
        graceMillis, maxConnections, maxMemory, TlsConfig.fromJson(json, host, hasTlsListeners),
        ReplicationConfig.fromJson(json, eventBus.address(), binlog.isEnabled()), listeners,
        TubeSettingsJson.tableFromJson(json.getValue(TubeSettings.SECTION)));
  }

  private static boolean metricsFlag(JsonObject json) {
    return new ConfigSection("metrics", METRICS_KEYS, METRICS_ENVIRONMENT, json).flag("enabled", true);
  }

  /**
   * {@code metrics.enabled} read early, from the launcher's raw {@code -conf} JSON and the process
   * environment, before Vert.x (and its metrics) start; an invalid value reads as true here and
   * fails start-up later, in {@link #fromJson}, with the full check.
   */
  public static boolean isMetricsEnabled(JsonObject rawConfig, Map<String, String> environment) {
    JsonObject json = rawConfig == null ? new JsonObject() : rawConfig.copy();
    METRICS_ENVIRONMENT.keySet().forEach(env -> {
      if (environment.containsKey(env)) {
        json.put(env, environment.get(env));
      }
    });
    try {
      return metricsFlag(json);
    } catch (IllegalArgumentException checkedLater) {
      return true;
    }
  }

  /**
   * The {@code cluster.tls} section, read from the launcher's raw {@code -conf} JSON and the process
   * environment before Vert.x starts: the cluster's event bus must be set up before it joins.
   *
   * @throws IllegalArgumentException with a one-line message naming the offending key
   */
  public static ClusterTlsConfig clusterTls(JsonObject rawConfig, Map<String, String> environment) {
    JsonObject json = rawConfig == null ? new JsonObject() : rawConfig.copy();
    Set<String> known = ConfigSection.topLevelKeys(ClusterTlsConfig.SECTION, ClusterTlsConfig.KEYS);
    for (String key : json.fieldNames()) {
      // A misspelt key would otherwise start the node with its event bus in the clear.
      if (key.startsWith("cluster") && !known.contains(key)) {
        throw new IllegalArgumentException("config: unknown key '" + ConfigSection.shown(key) + "'");
      }
    }
    ClusterTlsConfig.ENVIRONMENT.keySet().forEach(env -> {
      if (environment.containsKey(env)) {
        json.put(env, environment.get(env));
      }
    });
    return ClusterTlsConfig.fromJson(json);
  }

  private static Set<String> sectionKeys() {
    Set<String> all = new java.util.HashSet<>(
        ConfigSection.topLevelKeys(BinlogSection.SECTION, BinlogSection.KEYS));
    all.addAll(BinlogSection.ENVIRONMENT.keySet());
    all.addAll(ConfigSection.topLevelKeys("tcp", TCP_KEYS));
    all.addAll(TCP_ENVIRONMENT.keySet());
    all.addAll(ConfigSection.topLevelKeys(EventBusConfig.SECTION, EventBusConfig.KEYS));
    all.addAll(EventBusConfig.ENVIRONMENT.keySet());
    all.addAll(ConfigSection.topLevelKeys(HttpConfig.SECTION, HttpConfig.KEYS));
    all.addAll(HttpConfig.ENVIRONMENT.keySet());
    all.addAll(ConfigSection.topLevelKeys("metrics", METRICS_KEYS));
    all.addAll(METRICS_ENVIRONMENT.keySet());
    all.addAll(ConfigSection.topLevelKeys(TlsConfig.SECTION, TlsConfig.KEYS));
    all.addAll(TlsConfig.ENVIRONMENT.keySet());
    all.addAll(ConfigSection.topLevelKeys(ReplicationConfig.SECTION, ReplicationConfig.KEYS));
    all.addAll(ReplicationConfig.ENVIRONMENT.keySet());
    all.addAll(ConfigSection.topLevelKeys(ClusterTlsConfig.SECTION, ClusterTlsConfig.KEYS));
    all.add(ListenerConfig.KEY);
    all.add(TubeSettings.SECTION);
    all.addAll(ClusterTlsConfig.ENVIRONMENT.keySet());
    return all;
  }

  /** Keys that vertx-config or the launcher may add and that are not ours to judge. */
  private static boolean isIgnorable(String key) {
    return key.startsWith("vertx") || key.startsWith("VERTX");
  }

  private static String text(Map<String, Object> json, String key, String fallback) {
    Object v = json.get(key);
    if (v == null) {
      return fallback;
    }
    if (!(v instanceof String s) || s.isBlank()) {
      throw new IllegalArgumentException("config: '" + key + "' must be a non-empty string, got " + ConfigSection.shown(v));
    }
    return s;
  }

  private static long number(Map<String, Object> json, String key, long fallback, long min, long max) {
    Object v = json.get(key);
    return v == null ? fallback : ConfigSection.wholeNumber(key, v, min, max);
  }

}
