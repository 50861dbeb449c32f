package io.github.vertxbeanstalkd.metrics;

import io.github.vertxbeanstalkd.bus.EngineSnapshot;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.List;
import java.lang.ref.WeakReference;

/**
 * What the tube settings did, per tube, made at each scrape from the latest snapshot:
 * {@code beanstalkd_tube_puts_refused_total{tube,reason}} (reason {@code maxJobs} or
 * {@code maxBytes}), {@code beanstalkd_tube_dead_letters_total{tube}} and
 * {@code beanstalkd_tube_expired_total{tube,action}} (action {@code bury} or {@code delete}, by maxAge). Nothing is exported for
 * a tube whose settings never acted, so a server without tube settings exports none of them.
 */
final class TubeRuleSeries implements MultiCollector {
  static final String REFUSED = "beanstalkd_tube_puts_refused";
  static final String DEAD_LETTERS = "beanstalkd_tube_dead_letters";
  static final String EXPIRED = "beanstalkd_tube_expired";
  /** Held weakly, as {@code ServerMetrics}' own tube series holds it: a stopped server's metrics may go. */
  private final WeakReference<ServerMetrics> metrics;

  TubeRuleSeries(ServerMetrics metrics) {
    this.metrics = new WeakReference<>(metrics);
  }

  @Override
  public MetricSnapshots collect() {
    ServerMetrics m = metrics.get();
    EngineSnapshot s = m == null ? null : m.latest();
    if (s == null || s.tubeRules().isEmpty()) {
      return new MetricSnapshots();
    }
    CounterSnapshot.Builder refused = CounterSnapshot.builder().name(REFUSED)
        .help("Puts refused with OUT_OF_MEMORY by the tube's maxJobs or maxBytes");
    CounterSnapshot.Builder dead = CounterSnapshot.builder().name(DEAD_LETTERS)
        .help("Jobs buried (or moved to the dead-letter tube) by the tube's maxReserves");
    CounterSnapshot.Builder expired = CounterSnapshot.builder().name(EXPIRED)
        .help("Ready or delayed jobs buried or deleted by the tube's maxAge");
    s.tubeRules().forEach((tube, c) -> {
      refused.dataPoint(point(c.refusedByMaxJobs(), "reason", "maxJobs", "tube", tube))
          .dataPoint(point(c.refusedByMaxBytes(), "reason", "maxBytes", "tube", tube));
      dead.dataPoint(point(c.deadLettered(), "tube", tube));
      expired.dataPoint(point(c.expiredBuried(), "action", "bury", "tube", tube))
          .dataPoint(point(c.expiredDeleted(), "action", "delete", "tube", tube));
    });
    return new MetricSnapshots(refused.build(), dead.build(), expired.build());
  }

  @Override
  public List<String> getPrometheusNames() {
    return List.of(REFUSED, DEAD_LETTERS, EXPIRED);
  }

  private static CounterSnapshot.CounterDataPointSnapshot point(double value, String... labels) {
    return CounterSnapshot.CounterDataPointSnapshot.builder().value(value).labels(Labels.of(labels)).build();
  }
}
