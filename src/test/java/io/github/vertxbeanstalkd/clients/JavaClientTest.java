package io.github.vertxbeanstalkd.clients;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.dinstone.beanstalkc.BadFormatException;
import com.dinstone.beanstalkc.BeanstalkClient;
import com.dinstone.beanstalkc.BeanstalkClientFactory;
import com.dinstone.beanstalkc.Configuration;
import com.dinstone.beanstalkc.Job;
import com.dinstone.beanstalkc.JobConsumer;
import com.dinstone.beanstalkc.JobProducer;
import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Drives the server with an unmodified third-party client (com.dinstone:beanstalkc), the way an
 * application would, to show that a real client library works against it.
 */
@ExtendWith(VertxExtension.class)
@Timeout(20)
class JavaClientTest {
  private BeanstalkClientFactory factory;
  private BeanstalkClient client;

  @BeforeEach
  void deploy(Vertx vertx, VertxTestContext ctx) {
    BeanstalkServer.deploy(vertx, ServerConfig.forTests()).map(BeanstalkServer::port).onComplete(ctx.succeeding(port -> {
      Configuration config = new Configuration();
      config.setServiceHost("127.0.0.1");
      config.setServicePort(port);
      // Lets an oversized body reach the server instead of being refused by the client.
      config.setJobMaxSize(1 << 20);
      config.setOperationTimeout(5_000);
      factory = new BeanstalkClientFactory(config);
      client = factory.createBeanstalkClient();
      ctx.completeNow();
    }));
  }

  @AfterEach
  void close() {
    if (client != null) {
      client.close();
    }
  }

  @Test
  void producedJobIsConsumedWithItsBodyIntact() {
    byte[] body = "line one\r\nline two\r\n\0\u00ff".getBytes(StandardCharsets.ISO_8859_1);
    JobProducer producer = factory.createJobProducer("orders");
    JobConsumer consumer = factory.createJobConsumer("orders");
    try {
      long id = producer.putJob(100, 0, 60, body);
      Job job = consumer.reserveJob(1);
      assertNotNull(job);
      assertEquals(id, job.getId());
      assertArrayEquals(body, job.getData());
      assertTrue(consumer.deleteJob(id));
      assertNull(client.peek(id), "a deleted job is gone");
    } finally {
      producer.close();
      consumer.close();
    }
  }

  @Test
  void largeBodyOf60KiBRoundTrips() {
    byte[] body = new byte[60 * 1024];
    Arrays.fill(body, (byte) 'x');
    long id = client.putJob(0, 0, 60, body);
    assertArrayEquals(body, client.peek(id).getData());
  }

  @Test
  void reserveWithTimeoutOnAnEmptyTubeTimesOut() {
    // protocol.txt: reserve-with-timeout 0 answers at once; the client maps TIMED_OUT to null.
    assertNull(client.reserveJob(0));
  }

  @Test
  void buriedJobIsSeenByPeekBuriedAndKickedBackToReady() {
    long id = client.putJob(7, 0, 60, "b".getBytes(StandardCharsets.US_ASCII));
    assertEquals(id, client.reserveJob(0).getId());
    assertTrue(client.buryJob(id, 9));
    assertEquals(id, client.peekBuried().getId());
    assertEquals(1, client.kick(10), "kick counts only the buried job that existed");
    assertEquals(id, client.peekReady().getId());
    Map<String, String> stats = client.statsJob(id);
    assertEquals("ready", stats.get("state"));
    assertEquals("9", stats.get("pri"), "bury stores the new priority");
    assertEquals("1", stats.get("kicks"));
  }

  @Test
  void releaseWithDelayMakesTheJobDelayed() {
    long id = client.putJob(1, 0, 60, "r".getBytes(StandardCharsets.US_ASCII));
    client.reserveJob(0);
    assertTrue(client.touchJob(id));
    assertTrue(client.releaseJob(id, 2, 30));
    assertEquals(id, client.peekDelayed().getId());
    Map<String, String> stats = client.statsJob(id);
    assertEquals("delayed", stats.get("state"));
    assertEquals("30", stats.get("delay"));
    assertEquals("1", stats.get("releases"));
    assertNull(client.reserveJob(0), "a delayed job is not handed out");
  }

  @Test
  void tubeCommandsAreReportedByListAndStatsCommands() {
    assertTrue(client.useTube("emails"));
    assertTrue(client.watchTube("emails"));
    assertTrue(client.ignoreTube("default"));
    assertEquals("emails", client.listTubeUsed());
    assertEquals(List.of("emails"), client.listTubeWatched());
    assertEquals(List.of("default", "emails"), client.listTubes());
    client.putJob(0, 0, 60, "e".getBytes(StandardCharsets.US_ASCII));
    Map<String, String> tube = client.statsTube("emails");
    assertEquals("1", tube.get("current-jobs-ready"));
    assertEquals("1", tube.get("current-using"));
    assertEquals("2", client.stats().get("current-tubes"));
  }

  @Test
  void oversizedJobIsRefusedAndTheConnectionStaysUsable() {
    // BEHAVIOURS.md 4: the body is swallowed, JOB_TOO_BIG is sent, the connection stays open.
    // This client reports JOB_TOO_BIG as a BadFormatException.
    var e = assertThrows(BadFormatException.class, () -> client.putJob(0, 0, 60, new byte[65_536]));
    assertTrue(e.getMessage().contains("max-job-size"), e.getMessage());
    assertEquals("default", client.listTubeUsed());
    assertEquals("0", client.stats().get("total-jobs"));
  }
}
