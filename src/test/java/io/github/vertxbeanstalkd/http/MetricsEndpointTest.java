package io.github.vertxbeanstalkd.http;

import static io.github.vertxbeanstalkd.http.Http.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.HttpConfig;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.engine.Clock;
import io.github.vertxbeanstalkd.tcp.DeployedServerTest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** /metrics: the queue's series hold the values that known operations leave behind. */
class MetricsEndpointTest extends DeployedServerTest {
  private final SkipAheadClock clock = new SkipAheadClock();

  @Override
  protected ServerConfig config() {
    return ServerConfig.forTests().withHttp(HttpConfig.onFreePort("127.0.0.1"));
  }

  /** The engine's time, moved forward instead of slept through. */
  @Override
  protected Clock clock() {
    return clock;
  }

  private String scrape() {
    HttpResponse<String> r = new Http(server.httpPort()).get("/metrics");
    assertEquals(200, r.statusCode());
    assertTrue(r.headers().firstValue("content-type").orElse("").startsWith("text/plain; version=0.0.4"));
    return r.body();
  }

  @Test
  void jobsPerTubeAndStateCommandsConnectionsAndLatencies() {
    TestClient c = connect();
    c.send("use emails").expect("USING emails");
    for (int i = 1; i <= 3; i++) {
      c.send("put 0 0 60 2", "hi").expect("INSERTED " + i);
    }
    c.send("put 0 30 60 2", "hi").expect("INSERTED 4");
    c.send("watch emails").expect("WATCHING 2");
    c.send("reserve").expect("RESERVED 1 2", "hi");
    c.send("reserve").expect("RESERVED 2 2", "hi");
    c.send("bury 2 0").expect("BURIED");
    connect().send("stats").readLine();

    String m = scrape();
    assertEquals(1.0, sample(m, "beanstalkd_jobs{state=\"ready\",tube=\"emails\"}"));
    assertEquals(1.0, sample(m, "beanstalkd_jobs{state=\"delayed\",tube=\"emails\"}"));
    assertEquals(1.0, sample(m, "beanstalkd_jobs{state=\"reserved\",tube=\"emails\"}"));
    assertEquals(1.0, sample(m, "beanstalkd_jobs{state=\"buried\",tube=\"emails\"}"));
    assertEquals(0.0, sample(m, "beanstalkd_jobs{state=\"ready\",tube=\"default\"}"));
    assertEquals(4.0, sample(m, "beanstalkd_commands_total{command=\"put\"}"));
    assertEquals(2.0, sample(m, "beanstalkd_commands_total{command=\"reserve\"}"));
    assertEquals(1.0, sample(m, "beanstalkd_commands_total{command=\"bury\"}"));
    assertEquals(1.0, sample(m, "beanstalkd_commands_total{command=\"stats\"}"));
    assertEquals(2.0, sample(m, "beanstalkd_connections"));
    assertEquals(2.0, sample(m, "beanstalkd_connections_total"));
    assertEquals(0.0, sample(m, "beanstalkd_draining"));
    assertEquals(0.0, sample(m, "beanstalkd_job_timeouts_total"));
    // Measured at the TCP front, one observation per command, in the bucket of its latency or a later one.
    assertEquals(4.0, sample(m, "beanstalkd_command_duration_seconds_count{command=\"put\"}"));
    assertEquals(4.0, sample(m, "beanstalkd_command_duration_seconds_bucket{command=\"put\",le=\"10.0\"}"));
    assertEquals(2.0, sample(m, "beanstalkd_command_duration_seconds_count{command=\"reserve\"}"));
    assertTrue(sample(m, "beanstalkd_job_store_bytes") > 0);
    // No binlog, no binlog series.
    assertNull(sample(m, "beanstalkd_binlog_bytes"));
  }

  @Test
  void eventBusRequestsAreTimedToo() {
    io.github.vertxbeanstalkd.client.BeanstalkClient bus = io.github.vertxbeanstalkd.client.BeanstalkClient.create(vertx);
    await(bus.put("viaBus", "x"));
    await(bus.peekReady("viaBus"));
    String m = scrape();
    assertEquals(1.0, sample(m, "beanstalkd_command_duration_seconds_count{command=\"put\"}"));
    assertEquals(1.0, sample(m, "beanstalkd_command_duration_seconds_count{command=\"peek-ready\"}"));
    assertEquals(1.0, sample(m, "beanstalkd_commands_total{command=\"put\"}"));
  }

  @Test
  void theOldestReadyAgeGrowsWhileAJobWaitsAndATubeThatIsGoneLosesItsSeries() {
    TestClient c = connect();
    c.send("use slow").expect("USING slow");
    c.send("put 0 0 60 1", "x").expect("INSERTED 1");
    clock.skipMillis(2_000);
    c.send("put 0 0 60 1", "y").expect("INSERTED 2");
    double age = sample(scrape(), "beanstalkd_oldest_ready_age_seconds{tube=\"slow\"}");
    assertTrue(age >= 2.0 && age < 5.0, "age " + age);
    c.send("delete 1").expect("DELETED");
    double younger = sample(scrape(), "beanstalkd_oldest_ready_age_seconds{tube=\"slow\"}");
    assertTrue(younger < 1.0, "the oldest is now job 2: " + younger);
    c.send("delete 2").expect("DELETED");
    c.send("use default").expect("USING default");
    String m = scrape();
    assertNull(sample(m, "beanstalkd_oldest_ready_age_seconds{tube=\"slow\"}"));
    assertNull(sample(m, "beanstalkd_jobs{state=\"ready\",tube=\"slow\"}"));
    assertNotNull(sample(m, "beanstalkd_jobs{state=\"ready\",tube=\"default\"}"));
  }

  @Test
  void drainingAndJobTimeoutsAreCounted() throws InterruptedException {
    TestClient c = connect();
    c.send("put 0 0 1 1", "x").expect("INSERTED 1");
    c.send("reserve").expect("RESERVED 1 1", "x");
    // TTR 1 s: the job times out (BEHAVIOURS.md: DEADLINE_SOON first, then back to ready).
    assertTrue(eventually(3_000, () -> Double.valueOf(1.0).equals(sample(scrape(), "beanstalkd_job_timeouts_total"))));
    await(server.drain());
    assertEquals(1.0, sample(scrape(), "beanstalkd_draining"));
    await(server.undrain());
    assertEquals(0.0, sample(scrape(), "beanstalkd_draining"));
  }
}
