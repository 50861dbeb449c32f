package io.github.vertxbeanstalkd.metrics;

import io.github.vertxbeanstalkd.cluster.GroupState;
import io.github.vertxbeanstalkd.cluster.GroupStatus;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * The {@code beanstalkd_replication_*} series of REPLICATION.md, read from the node's
 * {@link GroupStatus}. They are registered once the node has a role, so a node that is not
 * replicated exports none of them; the ack histogram appears once the node is primary.
 *
 * @see <a href="{@docRoot}/../spec/REPLICATION.html">REPLICATION.md</a>
 */
final class GroupSeries {
  private static final List<String> ROLES = List.of(GroupState.PRIMARY, GroupState.STANDBY, GroupState.SYNCING);
  /** From 100 us (a standby on the same host) to 2 s (twice the default ackTimeoutMillis). */
  private static final Duration[] ACK_BUCKETS = {
      Duration.ofNanos(100_000), Duration.ofNanos(250_000), Duration.ofNanos(500_000), Duration.ofMillis(1),
      Duration.ofNanos(2_500_000), Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
      Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
      Duration.ofSeconds(1), Duration.ofSeconds(2)};

  private final MeterRegistry registry;
  private final GroupStatus status;
  /** Registration is idempotent in Micrometer, so two threads that race here register the same meters. */
  private volatile boolean isRegistered;
  private volatile Timer ackDuration;

  GroupSeries(MeterRegistry registry, GroupStatus status) {
    this.registry = registry;
    this.status = status;
  }

  /** Registers the series when the node has a role and they are not there yet; called before each scrape. */
  void registerIfReplicated() {
    GroupState s = status.state();
    if (s == null) {
      return;
    }
    if (!isRegistered) {
      register();
      isRegistered = true;
    }
    if (s.isPrimary() && ackDuration == null) {
      ackDuration = ackTimer();
    }
  }

  /** Records that a change waited {@code nanos} for its {@code minAcks} standbys; ignored when not replicated. */
  void recordAck(long nanos) {
    Timer timer = ackDuration;
    if (timer == null) {
      if (!status.isReplicated()) {
        return;
      }
      timer = ackTimer();
      ackDuration = timer;
    }
    timer.record(nanos, TimeUnit.NANOSECONDS);
  }

  private void register() {
    for (String role : ROLES) {
      Gauge.builder("beanstalkd.replication.role", this, g -> g.value(s -> role.equals(s.role()) ? 1 : 0))
          .description("1 for the node's role in its replication group, 0 for the others")
          .tag("role", role).register(registry);
    }
    Gauge.builder("beanstalkd.replication.standbys", this, g -> g.value(GroupState::standbys))
        .description("On a primary, the standbys that are caught up").register(registry);
    Gauge.builder("beanstalkd.replication.lag", this, g -> g.value(GroupState::lagBytes)).baseUnit("bytes")
        .description("On a standby, bytes of records the primary has logged that it has not applied")
        .register(registry);
    FunctionCounter.builder("beanstalkd.replication.failovers", this, g -> g.value(GroupState::failovers))
        .description("Times this node became primary after another").register(registry);
  }

  private Timer ackTimer() {
    return Timer.builder("beanstalkd.replication.ack.duration")
        .description("Time a change waited on the primary for minAcks standbys to have written it")
        .serviceLevelObjectives(ACK_BUCKETS)
        .register(registry);
  }

  private double value(ToDoubleFunction<GroupState> read) {
    GroupState s = status.state();
    return s == null ? 0 : read.applyAsDouble(s);
  }
}
