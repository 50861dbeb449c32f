package io.github.vertxbeanstalkd.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The Hazelcast configuration of one replication group's test on 127.0.0.1, with the CP
 * Subsystem on three CP members (shared/spec/REPLICATION.md: the group's lock must be
 * linearizable). The shipped group configuration {@link #SHIPPED} is used when it exists, under
 * a cluster name of this test's own; otherwise a minimal one is written, one file per member with
 * a free port each, so that parallel builds never collide or merge.
 */
final class CpLoopbackCluster {
  /** The shipped configuration for a group; change this path if it moves. */
  static final Path SHIPPED = Path.of("conf", "cluster-group.xml");

  private final String name = "bs-group-" + UUID.randomUUID();
  private final List<Integer> ports = new ArrayList<>();
  private final Path dir;

  /** A cluster of {@code members} members whose files go to {@code dir}. */
  CpLoopbackCluster(int members, Path dir) {
    this.dir = dir;
    for (int i = 0; i < members; i++) {
      ports.add(freePort());
    }
  }

  /** Says which configuration the members get, for the test's log. */
  String describe() {
    return Files.isRegularFile(SHIPPED) ? SHIPPED + " (cluster name " + name + ")"
        : "a generated loopback configuration with the CP Subsystem (" + SHIPPED + " is absent)";
  }

  /** The file for {@code -Dvertx.hazelcast.config} of member {@code member}. */
  Path xmlFor(int member) {
    try {
      Path file = dir.resolve("cluster-group-" + member + ".xml");
      if (Files.isRegularFile(SHIPPED)) {
        String shipped = Files.readString(SHIPPED);
        return Files.writeString(file,
            shipped.replaceFirst("<cluster-name>[^<]*</cluster-name>", "<cluster-name>" + name + "</cluster-name>"));
      }
      return Files.writeString(file, generated(ports.get(member)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private String generated(int port) {
    StringBuilder members = new StringBuilder();
    ports.forEach(p -> members.append("<member>127.0.0.1:").append(p).append("</member>"));
    // Short timeouts, so that a dead or paused member is noticed within seconds: heartbeats every
    // second, a member silent for 5 s is dead, a CP session (the lock's lease) lives 5 s.
    return """
        <hazelcast xmlns="http://www.hazelcast.com/schema/config">
          <cluster-name>%s</cluster-name>
          <properties>
            <property name="hazelcast.local.localAddress">127.0.0.1</property>
            <property name="hazelcast.wait.seconds.before.join">0</property>
            <property name="hazelcast.phone.home.enabled">false</property>
            <property name="hazelcast.logging.type">slf4j</property>
            <property name="hazelcast.heartbeat.interval.seconds">1</property>
            <property name="hazelcast.max.no.heartbeat.seconds">5</property>
          </properties>
          <network>
            <port auto-increment="false">%d</port>
            <join>
              <auto-detection enabled="false"/>
              <multicast enabled="false"/>
              <tcp-ip enabled="true">%s</tcp-ip>
            </join>
            <interfaces enabled="true"><interface>127.0.0.1</interface></interfaces>
          </network>
          <cp-subsystem>
            <cp-member-count>3</cp-member-count>
            <group-size>3</group-size>
            <session-time-to-live-seconds>5</session-time-to-live-seconds>
            <session-heartbeat-interval-seconds>1</session-heartbeat-interval-seconds>
            <missing-cp-member-auto-removal-seconds>6</missing-cp-member-auto-removal-seconds>
            <raft-algorithm>
              <leader-election-timeout-in-millis>1000</leader-election-timeout-in-millis>
              <leader-heartbeat-period-in-millis>300</leader-heartbeat-period-in-millis>
            </raft-algorithm>
          </cp-subsystem>
          <multimap name="__vertx.subs"><backup-count>1</backup-count><value-collection-type>SET</value-collection-type></multimap>
          <map name="__vertx.haInfo"><backup-count>1</backup-count></map>
          <map name="__vertx.nodeInfo"><backup-count>1</backup-count></map>
        </hazelcast>
        """.formatted(name, port, members);
  }

  /** A port free now on loopback, picked by the kernel. */
  static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
