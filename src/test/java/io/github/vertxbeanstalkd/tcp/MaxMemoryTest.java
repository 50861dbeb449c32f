package io.github.vertxbeanstalkd.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.ServerConfig;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** maxMemory: past the cap, what would store more answers OUT_OF_MEMORY; the rest keeps working. */
class MaxMemoryTest extends DeployedServerTest {
  private static final long MAX_MEMORY = 4L << 20;

  @Override
  protected ServerConfig config() {
    return ServerConfig.forTests().withMaxMemory(MAX_MEMORY);
  }

  /** Puts bodies of {@code size} until one is refused; returns the ids stored. */
  private static List<Long> fill(TestClient c, int size) {
    List<Long> ids = new ArrayList<>();
    String body = "m".repeat(size);
    while (true) {
      String reply = c.send("put 0 0 60 " + size, body).readLine();
      if (reply.equals("OUT_OF_MEMORY")) {
        return ids;
      }
      assertTrue(reply.startsWith("INSERTED "), reply);
      ids.add(Long.parseLong(reply.substring("INSERTED ".length())));
      assertTrue(ids.size() < 10_000, "never refused");
    }
  }

  @Test
  void putsNewTubesAndWatchesAreRefusedAtTheCapAndResumeOnceRoomIsFreed() {
    TestClient c = connect();
    List<Long> big = fill(c, 60_000);
    assertTrue(big.size() >= 10, "stored " + big.size());
    fill(c, 1_000);
    fill(c, 8);
    var stats = c.stats("stats");
    long used = Long.parseLong(stats.get("current-memory-bytes"));
    assertEquals(String.valueOf(MAX_MEMORY), stats.get("max-memory-bytes"));
    assertTrue(used <= MAX_MEMORY && used > MAX_MEMORY - 200, "used " + used);
    c.send("use elsewhere").expect("OUT_OF_MEMORY");
    c.send("watch elsewhere").expect("OUT_OF_MEMORY");
    c.send("watch default").expect("WATCHING 1");
    // A new event-bus session is priced too: refused with OUT_OF_MEMORY (507), nothing run.
    Throwable refused = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> await(
        io.github.vertxbeanstalkd.client.BeanstalkClient.create(vertx).reserve("default", 0)));
    assertTrue(String.valueOf(refused.getMessage()).contains("OUT_OF_MEMORY"), String.valueOf(refused));

    // Everything that reads or frees still works, for every client.
    TestClient other = connect();
    other.send("reserve-with-timeout 0").expect("RESERVED " + big.get(0) + " 60000").readExactly(60_002);
    other.send("release " + big.get(0) + " 0 0").expect("RELEASED");
    other.send("peek " + big.get(1)).expect("FOUND " + big.get(1) + " 60000").readExactly(60_002);
    other.send("delete " + big.get(1)).expect("DELETED");

    // The deleted job's room is free again at once, in its page (less the new connection's price).
    assertTrue(c.send("put 0 0 60 30000", "n".repeat(30_000)).readLine().startsWith("INSERTED "));
    c.send("delete " + big.get(2)).expect("DELETED");
    c.send("use elsewhere").expect("USING elsewhere");
    assertTrue(c.send("put 0 0 60 3", "new").readLine().startsWith("INSERTED "));
  }

  @Test
  void aCapAboveWhatTheStoreCanHoldStopsStartUpNamingTheKey() {
    Throwable e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
        () -> await(io.github.vertxbeanstalkd.BeanstalkServer.deploy(vertx,
            ServerConfig.forTests().withMaxMemory(Long.MAX_VALUE / 2))));
    assertTrue(String.valueOf(e.getMessage()).contains("config: 'maxMemory' is"), String.valueOf(e));
  }
}
