package io.github.vertxbeanstalkd.replication.election;

import com.hazelcast.config.Config;
import com.hazelcast.config.InMemoryXmlConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.github.vertxbeanstalkd.LoopbackPorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

/** Three members of the shipped conf/cluster-group.xml in one JVM, on loopback ports of their own. */
final class CpTestMembers {
  private static final String VERTX_NODE_ID = "__vertx.nodeId";
  private final String cluster;
  private final List<Integer> ports = List.of(LoopbackPorts.unused(), LoopbackPorts.unused(), LoopbackPorts.unused());

  CpTestMembers(String name) {
    this.cluster = name + "-" + UUID.randomUUID();
  }

  /** Stops each lock, then ends each member at once (nulls are skipped). */
  static void stop(HazelcastGroupLock[] locks, HazelcastInstance[] members) {
    for (HazelcastGroupLock lock : locks) {
      if (lock != null) {
        lock.stop();
      }
    }
    for (HazelcastInstance member : members) {
      if (member != null) {
        member.getLifecycleService().terminate();
      }
    }
  }

  /** Member {@code i} (0 to 2), started; a member started again at {@code i} is a new process at the same address. */
  HazelcastInstance member(int i) throws IOException {
    StringBuilder list = new StringBuilder();
    ports.forEach(p -> list.append("<member>127.0.0.1:").append(p).append("</member>"));
    String xml = Files.readString(Path.of("conf", "cluster-group.xml"))
        .replaceFirst("<cluster-name>[^<]*</cluster-name>", "<cluster-name>" + cluster + "</cluster-name>")
        .replaceFirst("<port [^>]*>\\d+</port>", "<port auto-increment=\"false\">" + ports.get(i) + "</port>")
        .replaceFirst("(?s)<tcp-ip enabled=\"true\">.*?</tcp-ip>", "<tcp-ip enabled=\"true\">" + list + "</tcp-ip>");
    Config config = new InMemoryXmlConfig(xml);
    // What vertx-hazelcast sets on every member: a restarted process has a new one.
    config.getMemberAttributeConfig().setAttribute(VERTX_NODE_ID, UUID.randomUUID().toString());
    return Hazelcast.newHazelcastInstance(config);
  }
}
