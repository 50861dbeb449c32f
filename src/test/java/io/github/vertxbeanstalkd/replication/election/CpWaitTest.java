package io.github.vertxbeanstalkd.replication.election;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.hazelcast.config.Config;
import com.hazelcast.config.InMemoryXmlConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.github.vertxbeanstalkd.LoopbackPorts;
import io.github.vertxbeanstalkd.cluster.Waits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node waiting for the CP Subsystem to form says what it waits for (issue: a group of two nodes
 * stayed "syncing" forever and nothing said why): members of conf/cluster-group.xml on loopback,
 * joined one at a time.
 */
class CpWaitTest {
  private final String cluster = "cp-wait-" + UUID.randomUUID();
  private final List<Integer> ports = List.of(LoopbackPorts.unused(), LoopbackPorts.unused(), LoopbackPorts.unused());
  private final List<HazelcastInstance> members = new ArrayList<>();

  @AfterEach
  void stop() {
    members.forEach(m -> m.getLifecycleService().terminate());
  }

  @Test
  void aNodeSaysHowManyCpMembersHaveJoinedUntilTheCpSubsystemForms() throws Exception {
    GroupLock lock = new HazelcastGroupLock(member(0), "cp-wait");
    assertEquals("1 of 3 CP members", lock.waitingFor());
    member(1);
    Waits.until(() -> "2 of 3 CP members".equals(lock.waitingFor()) ? true : null, 30_000,
        () -> "said " + lock.waitingFor());
    member(2);
    Waits.until(() -> lock.waitingFor() == null ? true : null, 60_000,
        () -> "still waiting for " + lock.waitingFor() + " with three members");
  }

  private HazelcastInstance member(int i) throws Exception {
    StringBuilder list = new StringBuilder();
    ports.forEach(p -> list.append("<member>127.0.0.1:").append(p).append("</member>"));
    String xml = Files.readString(Path.of("conf", "cluster-group.xml"))
        .replaceFirst("<cluster-name>[^<]*</cluster-name>", "<cluster-name>" + cluster + "</cluster-name>")
        .replaceFirst("<port [^>]*>\\d+</port>", "<port auto-increment=\"false\">" + ports.get(i) + "</port>")
        .replaceFirst("(?s)<tcp-ip enabled=\"true\">.*?</tcp-ip>", "<tcp-ip enabled=\"true\">" + list + "</tcp-ip>");
    Config config = new InMemoryXmlConfig(xml);
    HazelcastInstance member = Hazelcast.newHazelcastInstance(config);
    members.add(member);
    return member;
  }
}
