package io.github.vertxbeanstalkd.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.HeapBudget;
import io.github.vertxbeanstalkd.config.ServerConfig;
import org.junit.jupiter.api.Test;

/** maxConnections: one over the cap is closed at once and counted; the others go on untouched. */
class MaxConnectionsTest extends DeployedServerTest {

  @Override
  protected ServerConfig config() {
    return ServerConfig.forTests().withMaxConnections(3);
  }

  @Test
  void aConnectionOverTheCapIsClosedAtOnceAndTheOthersAreUnaffected() throws InterruptedException {
    TestClient a = connect();
    TestClient b = connect();
    TestClient c = connect();
    a.send("put 0 0 60 1", "x").expect("INSERTED 1");
    b.send("watch default").expect("WATCHING 1");
    c.sendRaw("reserve-with-timeout 5\r\n");
    assertEquals("RESERVED 1 1", c.readLine());
    c.readLine();

    TestClient over = connect();
    over.expectClosed();
    TestClient again = connect();
    again.expectClosed();

    // The three still work, with their state: c still holds job 1.
    c.send("delete 1").expect("DELETED");
    a.send("put 0 0 60 1", "y").expect("INSERTED 2");
    var stats = b.stats("stats");
    assertEquals("3", stats.get("current-connections"));
    assertEquals("2", stats.get("rejected-connections"));
    assertEquals("3", stats.get("total-connections"));

    // Once one leaves, a new one is let in.
    a.close();
    assertEquals(true, eventually(2_000, () -> "2".equals(b.stats("stats").get("current-connections"))));
    TestClient d = connect();
    d.send("peek 2").expect("FOUND 2 1", "y");
  }

  @Test
  void theDefaultLeavesTheHeapRoomForTheServerItself() {
    assertEquals(0, HeapBudget.heapConnections(64L << 20), "-Xmx64m: no room beyond the young generation");
    // -Xmx256m: 3/4 of it less 48 MiB, the eighth for tubes, watches and sessions and the sixteenth for
    // bodies on their way to a front, at 10 KiB a connection.
    assertEquals(((192L - 48 - 32 - 16) << 20) / (10 * 1024), HeapBudget.heapConnections(256L << 20));
    assertEquals(32L << 20, HeapBudget.heldStateHeapBytes(256L << 20));
    assertEquals(16L << 20, HeapBudget.copiesInTransitHeapBytes(256L << 20));
  }

  @Test
  void theDefaultFollowsTheOpenFileLimit() {
    int max = HeapBudget.defaultMaxConnections();
    long limit = ((com.sun.management.UnixOperatingSystemMXBean)
        java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getMaxFileDescriptorCount();
    // Room is left for what is not a client: jars, binlog files, listeners, a cluster.
    assertTrue(limit - max >= 256 || max == 16, "default " + max + " with an open-file limit of " + limit);
    assertTrue(max <= Math.max(16, HeapBudget.heapConnections(Runtime.getRuntime().maxMemory())),
        "default " + max + " with a heap of " + Runtime.getRuntime().maxMemory());
    assertTrue(max >= 16);
    assertEquals(max, ServerConfig.fromJson(new io.vertx.core.json.JsonObject()).maxConnections());
    assertEquals(7, ServerConfig.fromJson(new io.vertx.core.json.JsonObject().put("maxConnections", 7))
        .maxConnections());
  }
}
