package io.github.vertxbeanstalkd.http;

import static io.github.vertxbeanstalkd.http.Http.lines;
import static io.github.vertxbeanstalkd.http.Http.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.cluster.GroupState;
import io.github.vertxbeanstalkd.cluster.GroupStatus;
import io.github.vertxbeanstalkd.config.HttpConfig;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.engine.Clock;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The beanstalkd_replication_* series of REPLICATION.md, as a scrape shows them. */
@ExtendWith(VertxExtension.class)
class ReplicationMetricsTest {
  private final GroupStatus group = new GroupStatus();
  private BeanstalkServer server;

  @BeforeEach
  void deploy(Vertx vertx) {
    server = BeanstalkServer.deploy(vertx,
            ServerConfig.forTests().withHttp(HttpConfig.onFreePort("127.0.0.1")), Clock.system(), group)
        .toCompletionStage().toCompletableFuture().join();
  }

  private String scrape() {
    HttpResponse<String> r = new Http(server.httpPort()).get("/metrics");
    assertEquals(200, r.statusCode());
    return r.body();
  }

  @Test
  void aPrimaryExportsItsRoleStandbysFailoversAndAckDurations() {
    group.set(new GroupState(GroupState.PRIMARY, 4, 2, false, 0, true, 3, true));
    server.metrics().recordAck(300_000);
    server.metrics().recordAck(3_000_000);
    server.metrics().recordAck(5_000_000_000L);
    String m = scrape();
    assertEquals(1.0, sample(m, "beanstalkd_replication_role{role=\"primary\"}"));
    assertEquals(0.0, sample(m, "beanstalkd_replication_role{role=\"standby\"}"));
    assertEquals(0.0, sample(m, "beanstalkd_replication_role{role=\"syncing\"}"));
    assertEquals(2.0, sample(m, "beanstalkd_replication_standbys"));
    assertEquals(0.0, sample(m, "beanstalkd_replication_lag_bytes"));
    assertEquals(3.0, sample(m, "beanstalkd_replication_failovers_total"));
    assertTrue(m.contains("# TYPE beanstalkd_replication_failovers_total counter"), m);
    assertTrue(m.contains("# TYPE beanstalkd_replication_ack_duration_seconds histogram"), m);
    assertEquals(3.0, sample(m, "beanstalkd_replication_ack_duration_seconds_count"));
    assertEquals(0.0, sample(m, "beanstalkd_replication_ack_duration_seconds_bucket{le=\"1.0E-4\"}"));
    assertEquals(1.0, sample(m, "beanstalkd_replication_ack_duration_seconds_bucket{le=\"5.0E-4\"}"));
    assertEquals(2.0, sample(m, "beanstalkd_replication_ack_duration_seconds_bucket{le=\"2.0\"}"));
    assertEquals(3.0, sample(m, "beanstalkd_replication_ack_duration_seconds_bucket{le=\"+Inf\"}"));
  }

  @Test
  void aStandbyExportsItsRoleAndLagAndTheRoleFollowsItsChanges() {
    group.set(new GroupState(GroupState.SYNCING, 4, 0, false, 1_000_000, true, 0, false));
    String m = scrape();
    assertEquals(1.0, sample(m, "beanstalkd_replication_role{role=\"syncing\"}"));
    assertEquals(0.0, sample(m, "beanstalkd_replication_role{role=\"primary\"}"));
    assertEquals(1_000_000.0, sample(m, "beanstalkd_replication_lag_bytes"));
    assertEquals(0.0, sample(m, "beanstalkd_replication_failovers_total"));
    // REPLICATION.md: the ack histogram is the primary's.
    assertTrue(lines(m, "beanstalkd_replication_ack_duration_seconds_count").isEmpty(), m);

    group.set(new GroupState(GroupState.STANDBY, 4, 0, false, 512, true, 0, false));
    m = scrape();
    assertEquals(1.0, sample(m, "beanstalkd_replication_role{role=\"standby\"}"));
    assertEquals(0.0, sample(m, "beanstalkd_replication_role{role=\"syncing\"}"));
    assertEquals(512.0, sample(m, "beanstalkd_replication_lag_bytes"));

    group.set(new GroupState(GroupState.PRIMARY, 5, 1, true, 0, true, 1, true));
    m = scrape();
    assertEquals(1.0, sample(m, "beanstalkd_replication_role{role=\"primary\"}"));
    assertEquals(0.0, sample(m, "beanstalkd_replication_role{role=\"standby\"}"));
    assertEquals(1.0, sample(m, "beanstalkd_replication_failovers_total"));
    assertEquals(0.0, sample(m, "beanstalkd_replication_ack_duration_seconds_count"));
  }

  @Test
  void aNodeThatIsNotReplicatedExportsNoReplicationSeries() {
    server.metrics().recordAck(1_000_000);
    String m = scrape();
    assertFalse(m.contains("beanstalkd_replication"), m);
    assertNull(sample(m, "beanstalkd_replication_standbys"));
  }
}
