package io.github.vertxbeanstalkd.cluster;

import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.github.vertxbeanstalkd.ChildJvm;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * REPLICATION.md "What is promised": {@code replication.enabled} on a cluster without three CP
 * members stops start-up with an error that names the fix, instead of a group that never fails
 * over. A real node through the launcher, on a loopback cluster configured without the CP Subsystem.
 */
class ReplicationWithoutCpTest {
  private static final long START_MILLIS = 120_000;

  @TempDir
  Path dir;

  @Test
  void aNodeWithReplicationAndNoCpSubsystemStopsAndNamesTheFix() throws Exception {
    LoopbackCluster cluster = new LoopbackCluster(1);
    JsonObject conf = new JsonObject().put("port", 0).put("http", new JsonObject().put("port", 0))
        .put("binlog", new JsonObject().put("dir", dir.resolve("binlog").toString()))
        .put("replication", new JsonObject().put("enabled", true));
    try (ChildJvm node = ChildJvm.start(List.of("-Dvertx.hazelcast.config=" + cluster.xmlFor(0, dir)),
        "io.github.vertxbeanstalkd.Main",
        List.of("io.github.vertxbeanstalkd.MainVerticle", "-cluster", "-cluster-host", "127.0.0.1", "-conf",
            conf.encode()), dir.resolve("node.log"))) {
      node.await(Pattern.compile("replication.enabled needs Hazelcast's CP Subsystem with at least three CP members"
          + ".*conf/cluster-group\\.xml"), START_MILLIS);
      assertNotEquals(0, node.awaitExit(START_MILLIS), "the node went on without a CP Subsystem");
    }
  }
}
