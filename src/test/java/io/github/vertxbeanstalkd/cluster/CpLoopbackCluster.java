package io.github.vertxbeanstalkd.cluster;

import io.github.vertxbeanstalkd.LoopbackPorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The shipped Hazelcast configuration of a replication group ({@link #SHIPPED}, with the CP
 * Subsystem on three CP members) for one test on 127.0.0.1: a cluster name of the test's own and a
 * free port per member, so that parallel builds never collide or merge.
 */
final class CpLoopbackCluster {
  /** The shipped configuration for a group. */
  static final Path SHIPPED = Path.of("conf", "cluster-group.xml");

  private final String name = "bs-group-" + UUID.randomUUID();
  private final List<Integer> ports = new ArrayList<>();
  private final Path dir;

  /** A cluster of {@code members} members whose files go to {@code dir}. */
  CpLoopbackCluster(int members, Path dir) {
    this.dir = dir;
    for (int i = 0; i < members; i++) {
      ports.add(LoopbackPorts.unused());
    }
  }

  /** Says which configuration the members get, for the test's log. */
  String describe() {
    return SHIPPED + " (cluster name " + name + ", ports " + ports + ")";
  }

  /** The file for {@code -Dvertx.hazelcast.config} of member {@code member}. */
  Path xmlFor(int member) {
    StringBuilder members = new StringBuilder();
    ports.forEach(p -> members.append("<member>127.0.0.1:").append(p).append("</member>"));
    try {
      String xml = Files.readString(SHIPPED)
          .replaceFirst("<cluster-name>[^<]*</cluster-name>", "<cluster-name>" + name + "</cluster-name>")
          .replaceFirst("<port [^>]*>\\d+</port>", "<port auto-increment=\"false\">" + ports.get(member) + "</port>")
          .replaceFirst("(?s)<tcp-ip enabled=\"true\">.*?</tcp-ip>", "<tcp-ip enabled=\"true\">" + members + "</tcp-ip>");
      return Files.writeString(dir.resolve("cluster-group-" + member + ".xml"), xml);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A port free now on loopback, picked by the kernel. */
}
