package io.github.vertxbeanstalkd.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.cluster.Address;
import com.hazelcast.config.Config;
import com.hazelcast.config.InMemoryXmlConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.EndpointQualifier;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.instance.impl.Node;
import io.github.vertxbeanstalkd.LoopbackPorts;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A member of the shipped cluster configurations that reaches a member which accepts TCP but never
 * answers (a SIGSTOPped process: the kernel completes the connect) waits for it without spinning.
 * With Hazelcast's plain {@code <network>}, one IO thread spins at a full core for as long as that
 * member stays silent; on a two-core machine, two spinning members miss each other's heartbeats and
 * split (the SIGSTOP kill test). The silent member here is a listening socket that never accepts;
 * the member is made to connect to it through Hazelcast's internal connection manager, as its
 * invocations and heartbeats do.
 */
class SilentMemberTest {
  private static final long WATCH_MILLIS = 3_000;

  @Test
  void aGroupMemberDoesNotSpinWhileAnotherMemberIsSilent() throws Exception {
    assertQuietBeside(Path.of("conf", "cluster-group.xml"));
  }

  @Test
  void aSidecarDoesNotSpinWhileAnotherMemberIsSilent() throws Exception {
    assertQuietBeside(Path.of("conf", "cluster.xml"));
  }

  @Test
  void anAppWhoseFileUsesThePlainNetworkStillJoins() throws Exception {
    int port = LoopbackPorts.unused();
    String name = "mixed-" + UUID.randomUUID();
    HazelcastInstance node = Hazelcast.newHazelcastInstance(new InMemoryXmlConfig(shipped(Path.of("conf", "cluster.xml"),
        name, port, "<member>127.0.0.1:" + port + "</member>")));
    HazelcastInstance app = null;
    try {
      Config plain = new Config().setClusterName(name);
      plain.setProperty("hazelcast.wait.seconds.before.join", "0");
      plain.getNetworkConfig().setPort(LoopbackPorts.unused()).setPortAutoIncrement(false);
      plain.getNetworkConfig().getInterfaces().setEnabled(true).addInterface("127.0.0.1");
      plain.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
      plain.getNetworkConfig().getJoin().getAutoDetectionConfig().setEnabled(false);
      plain.getNetworkConfig().getJoin().getTcpIpConfig().setEnabled(true).addMember("127.0.0.1:" + port);
      app = Hazelcast.newHazelcastInstance(plain);
      assertEquals(2, app.getCluster().getMembers().size());
      assertEquals(2, node.getCluster().getMembers().size());
    } finally {
      if (app != null) {
        app.getLifecycleService().terminate();
      }
      node.getLifecycleService().terminate();
    }
  }

  /** A shipped file made this test's own: its cluster name, its port, and its member list. */
  private static String shipped(Path file, String name, int port, String members) throws IOException {
    return Files.readString(file)
        .replaceFirst("<cluster-name>[^<]*</cluster-name>", "<cluster-name>" + name + "</cluster-name>")
        .replaceFirst("<port [^>]*>\\d+</port>", "<port auto-increment=\"false\">" + port + "</port>")
        .replaceFirst("(?s)<tcp-ip enabled=\"true\">.*?</tcp-ip>", "<tcp-ip enabled=\"true\">" + members + "</tcp-ip>");
  }

  private static void assertQuietBeside(Path shipped) throws Exception {
    try (ServerSocket silent = new ServerSocket()) {
      silent.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
      int port = LoopbackPorts.unused();
      Config config = new InMemoryXmlConfig(shipped(shipped, "silent-" + UUID.randomUUID(), port,
          "<member>127.0.0.1:" + port + "</member>"));
      HazelcastInstance member = Hazelcast.newHazelcastInstance(config);
      try {
        String prefix = "hz." + member.getName() + ".IO.thread-out";
        long before = ioCpuNanos(prefix);
        // As a member reaches a member it knows (an invocation, a heartbeat, the merge check).
        Node node = ((HazelcastInstanceProxy) member).getOriginal().node;
        node.getServer().getConnectionManager(EndpointQualifier.MEMBER)
            .getOrConnect(new Address("127.0.0.1", silent.getLocalPort()));
        Thread.sleep(WATCH_MILLIS); // a CPU-time budget over a window: nothing to await
        long usedMillis = TimeUnit.NANOSECONDS.toMillis(ioCpuNanos(prefix) - before);
        assertTrue(usedMillis < WATCH_MILLIS / 4, shipped + ": Hazelcast's outgoing IO threads used " + usedMillis
            + " ms of CPU in " + WATCH_MILLIS + " ms beside a silent member (a spin uses all of it)");
      } finally {
        member.getLifecycleService().terminate();
      }
    }
  }

  private static long ioCpuNanos(String threadPrefix) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (ThreadInfo t : threads.dumpAllThreads(false, false)) {
      if (t.getThreadName().startsWith(threadPrefix)) {
        sum += Math.max(0, threads.getThreadCpuTime(t.getThreadId()));
      }
    }
    return sum;
  }
}
