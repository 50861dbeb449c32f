package io.github.vertxbeanstalkd.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import org.junit.jupiter.api.Test;

/** BEHAVIOURS.md 12: drain mode, entered through BeanstalkServer.drain as SIGUSR1 would. */
class DrainModeTest extends DeployedServerTest {

  @Test
  void inDrainModePutAnswersDrainingAndOtherCommandsStillWork() throws InterruptedException {
    TestClient c = connect();
    c.send("put 0 0 60 3", "old").expect("INSERTED 1");
    await(server.drain());
    assertEquals("true", c.stats("stats").get("draining"));
    c.send("put 0 0 60 3", "new").expect("DRAINING");
    c.send("reserve").expect("RESERVED 1 3", "old");
    c.send("delete 1").expect("DELETED");
    c.send("put 0 0 60 3", "abcde").expect("EXPECTED_CRLF", "UNKNOWN_COMMAND");
    c.send("list-tube-used").expect("USING default");
    var stats = c.stats("stats");
    assertEquals("1", stats.get("total-jobs"));
    assertEquals("3", stats.get("cmd-put"));
  }

  @Test
  void drainModeAppliesToEveryConnection() throws InterruptedException {
    TestClient first = connect();
    await(server.drain());
    assertEquals("true", first.stats("stats").get("draining"));
    TestClient later = connect();
    later.send("put 0 0 60 1", "x").expect("DRAINING");
    later.send("peek 1").expect("NOT_FOUND");
  }
}
