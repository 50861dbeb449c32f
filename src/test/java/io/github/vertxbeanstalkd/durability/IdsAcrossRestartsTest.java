package io.github.vertxbeanstalkd.durability;

import static io.github.vertxbeanstalkd.durability.Wire.number;
import static io.github.vertxbeanstalkd.durability.Wire.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.ServerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Job ids never go backwards across restarts, not even after every job was deleted (FORMAT.md
 * Replay: the first new id is above every HighWater value; beanstalkd 1.12 restarts at 1 there).
 */
class IdsAcrossRestartsTest {
  @TempDir Path dir;

  @Test
  void idsContinueAboveTheHighestEverIssuedAlsoAfterEveryJobWasDeleted() throws Exception {
    ServerConfig config = ServerLife.config(dir);
    long highest = 0;
    // Even lives only restart: the log they leave holds no job at all, only the high-water mark.
    for (int life = 1; life <= 5; life++) {
      try (ServerLife server = ServerLife.start(config); TestClient c = TestClient.connect(server.port())) {
        Map<String, String> stats = c.stats("stats");
        assertEquals(0, number(stats, "current-jobs-ready"), "life " + life + ": every job was deleted");
        assertEquals(life, number(stats, "binlog-current-index"), "one new segment per start");
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < (life % 2 == 1 ? 5 : 0); i++) {
          long id = put(c, "t" + life, 100, 0, "life " + life + " job " + i);
          assertTrue(id > highest, "life " + life + ": id " + id + " after " + highest + " was issued");
          highest = id;
          ids.add(id);
        }
        for (long id : ids) {
          c.send("delete " + id).expect("DELETED");
        }
      }
    }
  }

  @Test
  void anEmptyLogStartsAtIdOne() throws Exception {
    try (ServerLife server = ServerLife.start(ServerLife.config(dir));
        TestClient c = TestClient.connect(server.port())) {
      assertEquals(1, put(c, "default", 0, 0, "first"));
      Map<String, String> job = Wire.statsJob(c, 1);
      assertEquals(1, number(job, "file"), "stats-job file: the segment holding the job");
    }
  }
}
