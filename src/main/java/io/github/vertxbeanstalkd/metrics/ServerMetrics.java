package io.github.vertxbeanstalkd.metrics;

import io.github.vertxbeanstalkd.bus.EngineSnapshot;
import io.github.vertxbeanstalkd.engine.EngineObserver;
import io.github.vertxbeanstalkd.cluster.GroupStatus;
import io.github.vertxbeanstalkd.protocol.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.vertx.micrometer.backends.BackendRegistries;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The queue's own {@code beanstalkd_*} series in a Prometheus registry: gauges and counters read the
 * latest {@link EngineSnapshot} the engine published (a volatile reference, no lock, no walk over
 * jobs), command latencies come from the fronts, sync times from the binlog writer. The registry is
 * Vert.x's own when its metrics run on Prometheus (so one scrape has the {@code vertx_*} series
 * too), otherwise one of this server's. On a node of a replication group, the
 * {@code beanstalkd_replication_*} series too (see {@link GroupSeries}), and the count of commands
 * its TCP connections have forwarded to the primary and not yet had answered.
 */
public final class ServerMetrics implements EngineObserver {
  private final PrometheusMeterRegistry registry;
  private final CommandDurations commandDurations;
  private final Timer fsync;
  /** Null when the node is not replicated. */
  private final GroupSeries group;
  /** Null when the node's connections are not forwarded. */
  private final LongSupplier forwardedAwaitingReply;
  private volatile EngineSnapshot latest;

  private ServerMetrics(PrometheusMeterRegistry registry, boolean hasBinlog, GroupStatus groupStatus,
      LongSupplier forwardedAwaitingReply) {
    this.registry = registry;
    this.forwardedAwaitingReply = forwardedAwaitingReply;
    this.group = groupStatus == null ? null : new GroupSeries(registry, groupStatus);
    this.commandDurations = new CommandDurations(registry);
    for (Counter c : Counter.values()) {
      if (c == Counter.NONE) {
        continue;
      }
      FunctionCounter.builder("beanstalkd.commands", this, m -> m.value(s -> s.commandCount(c)))
          .description("Commands run, as the cmd-* keys of stats")
          .tag("command", c.statsKey().substring("cmd-".length()))
          .register(registry);
    }
    Gauge.builder("beanstalkd.connections", this, m -> m.value(s -> s.currentConnections()))
        .description("Open TCP connections").register(registry);
    FunctionCounter.builder("beanstalkd.connections.rejected", this,
            m -> m.value(EngineSnapshot::rejectedConnections))
        .description("Connections closed at once because maxConnections were open").register(registry);
    FunctionCounter.builder("beanstalkd.job.timeouts", this, m -> m.value(EngineSnapshot::jobTimeouts))
        .description("Reserved jobs whose time to run ran out").register(registry);
    Gauge.builder("beanstalkd.draining", this, m -> m.value(s -> s.isDraining() ? 1 : 0))
        .description("1 while in drain mode (puts refused), else 0").register(registry);
    Gauge.builder("beanstalkd.job.store", this, m -> m.value(EngineSnapshot::jobStoreBytes)).baseUnit("bytes")
        .description("Memory the job store holds: bodies, records, index and heaps").register(registry);
    Gauge.builder("beanstalkd.memory", this, m -> m.value(EngineSnapshot::memoryBytes)).baseUnit("bytes")
        .description("What maxMemory counts: job data as stored, and each tube, watch and session").register(registry);
    Gauge.builder("beanstalkd.memory.max", this, m -> m.value(EngineSnapshot::maxMemoryBytes)).baseUnit("bytes")
        .description("maxMemory: puts answer OUT_OF_MEMORY past it").register(registry);
    if (hasBinlog) {
      fsync = Timer.builder("beanstalkd.binlog.fsync.duration")
          .description("Time a sync of the binlog took (with fsync always, a batch's write and sync)")
          .serviceLevelObjectives(Duration.ofNanos(100_000), Duration.ofNanos(250_000), Duration.ofNanos(500_000),
              Duration.ofMillis(1), Duration.ofNanos(2_500_000), Duration.ofMillis(5), Duration.ofMillis(10),
              Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
              Duration.ofMillis(500), Duration.ofSeconds(1))
          .register(registry);
      Gauge.builder("beanstalkd.binlog", this, m -> m.value(EngineSnapshot::binlogBytes)).baseUnit("bytes")
          .description("Bytes of records in the binlog's files").register(registry);
    } else {
      fsync = null;
    }
    if (forwardedAwaitingReply != null) {
      Gauge.builder("beanstalkd.forwarded.commands.awaiting.reply", this, m -> m.forwardedAwaitingReply.getAsLong())
          .description("Commands this node's TCP connections forwarded to the primary, not yet answered")
          .register(registry);
    }
    registry.getPrometheusRegistry().register(new TubeSeries(this));
    registry.getPrometheusRegistry().register(new TubeRuleSeries(this));
  }

  /**
   * Metrics in the Vert.x instance's Prometheus registry when it has one that no other server
   * uses yet, else in a registry of their own.
   */
  public static ServerMetrics create(boolean hasBinlog) {
    return create(hasBinlog, null);
  }

  /**
   * As {@link #create(boolean)}, with the {@code beanstalkd_replication_*} series read from
   * {@code group} once it has a state.
   *
   * @param group null when the node is not replicated
   */
  public static ServerMetrics create(boolean hasBinlog, GroupStatus group) {
    return create(hasBinlog, group, null);
  }

  /**
   * As {@link #create(boolean, GroupStatus)}, with {@code beanstalkd_forwarded_commands_awaiting_reply}
   * read from {@code forwardedAwaitingReply}.
   *
   * @param forwardedAwaitingReply read on the scrape's thread; null when the node's connections are not forwarded
   */
  public static ServerMetrics create(boolean hasBinlog, GroupStatus group, LongSupplier forwardedAwaitingReply) {
    PrometheusMeterRegistry shared = prometheusOf(BackendRegistries.getDefaultNow());
    if (shared != null && shared.find("beanstalkd.connections").meter() == null) {
      return new ServerMetrics(shared, hasBinlog, group, forwardedAwaitingReply);
    }
    return new ServerMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), hasBinlog, group,
        forwardedAwaitingReply);
  }

  private static PrometheusMeterRegistry prometheusOf(MeterRegistry registry) {
    if (registry instanceof PrometheusMeterRegistry p) {
      return p;
    }
    if (registry instanceof CompositeMeterRegistry composite) {
      for (MeterRegistry r : composite.getRegistries()) {
        if (r instanceof PrometheusMeterRegistry p) {
          return p;
        }
      }
    }
    return null;
  }

  public PrometheusMeterRegistry registry() {
    return registry;
  }

  public CommandDurations commandDurations() {
    return commandDurations;
  }

  /** The latest snapshot, or null before the engine published one. */
  public EngineSnapshot latest() {
    return latest;
  }

  /** The Prometheus text format of every series; may take milliseconds, so not on an event loop. */
  public String scrape() {
    if (group != null) {
      group.registerIfReplicated();
    }
    // A gauge x and a counter x_total are one family to Micrometer's Prometheus client, so it can
    // hold only one of beanstalkd_connections and beanstalkd_connections_total: the counter is
    // written here, in the same text format.
    return registry.scrape()
        + "# HELP beanstalkd_connections_total TCP connections accepted since start\n"
        + "# TYPE beanstalkd_connections_total counter\n"
        + "beanstalkd_connections_total " + (double) (long) value(EngineSnapshot::totalConnections) + "\n";
  }

  /** On the engine's thread, every second and for each scrape: O(1), whatever the tubes. */
  @Override
  public void published(EngineSnapshot snapshot) {
    latest = snapshot;
  }

  /**
   * On a primary, records that a change waited {@code nanos} for its {@code minAcks} standbys to
   * have written it (the {@code beanstalkd_replication_ack_duration_seconds} histogram); ignored
   * on a node that is not replicated. Any thread.
   */
  public void recordAck(long nanos) {
    if (group != null) {
      group.recordAck(nanos);
    }
  }

  @Override
  public void synced(long nanos) {
    if (fsync != null) {
      fsync.record(nanos, TimeUnit.NANOSECONDS);
    }
  }

  private double value(java.util.function.ToDoubleFunction<EngineSnapshot> read) {
    EngineSnapshot s = latest;
    return s == null ? 0 : read.applyAsDouble(s);
  }

  /**
   * The per-tube series ({@code beanstalkd_jobs{tube,state}} and
   * {@code beanstalkd_oldest_ready_age_seconds{tube}}), made at each scrape from the latest snapshot
   * rather than kept as a Micrometer gauge per tube and state: registering or removing one of those
   * is a pass over every meter (measured: 2 ms for one tube's five at 25,000 meters), and the engine
   * registered all of them again at each change of the tube set, so with 5,000 tubes and one tube
   * made and dropped every 0.3 s its thread stalled for up to 550-805 ms (a put-and-delete's max;
   * 12-13 ms with this, 4-5 ms for beanstalkd; src/test/scripts/tube_churn.py). Held weakly, as Micrometer holds its gauges' objects, so a server
   * that is gone leaves no series behind in a registry it shared.
   */
  private static final class TubeSeries implements MultiCollector {
    private static final String JOBS = "beanstalkd_jobs";
    private static final String AGE = "beanstalkd_oldest_ready_age_seconds";
    private final WeakReference<ServerMetrics> metrics;

    TubeSeries(ServerMetrics metrics) {
      this.metrics = new WeakReference<>(metrics);
    }

    @Override
    public MetricSnapshots collect() {
      ServerMetrics m = metrics.get();
      EngineSnapshot s = m == null ? null : m.latest;
      if (s == null || s.tubes().isEmpty()) {
        return new MetricSnapshots();
      }
      GaugeSnapshot.Builder jobs = GaugeSnapshot.builder().name(JOBS).help("Jobs per tube and state");
      GaugeSnapshot.Builder ages = GaugeSnapshot.builder().name(AGE)
          .help("How long the tube's longest-waiting ready job has been ready");
      for (EngineSnapshot.TubeCounts t : s.tubes().values()) {
        jobs.dataPoint(point(t.ready(), "state", "ready", "tube", t.name()))
            .dataPoint(point(t.delayed(), "state", "delayed", "tube", t.name()))
            .dataPoint(point(t.reserved(), "state", "reserved", "tube", t.name()))
            .dataPoint(point(t.buried(), "state", "buried", "tube", t.name()));
        ages.dataPoint(point(t.oldestReadyAgeSeconds(), "tube", t.name()));
      }
      return new MetricSnapshots(jobs.build(), ages.build());
    }

    @Override
    public List<String> getPrometheusNames() {
      return List.of(JOBS, AGE);
    }

    private static GaugeSnapshot.GaugeDataPointSnapshot point(double value, String... labels) {
      return GaugeSnapshot.GaugeDataPointSnapshot.builder().value(value).labels(Labels.of(labels)).build();
    }
  }
}
