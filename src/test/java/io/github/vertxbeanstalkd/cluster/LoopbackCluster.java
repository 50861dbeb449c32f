package io.github.vertxbeanstalkd.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import io.github.vertxbeanstalkd.LoopbackPorts;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * A Hazelcast cluster on 127.0.0.1 for one test: a cluster name of its own and one free port per
 * member, picked by the kernel, so that parallel builds never collide or merge. Members in this
 * JVM are configured in code; child JVMs get the same settings as an XML file.
 */
public final class LoopbackCluster {
  private final String name = "bs-test-" + UUID.randomUUID();
  private final List<Integer> ports = new ArrayList<>();

  /** A cluster of up to {@code members} members. */
  public LoopbackCluster(int members) {
    for (int i = 0; i < members; i++) {
      ports.add(LoopbackPorts.unused());
    }
  }

  int port(int member) {
    return ports.get(member);
  }

  /** A clustered Vert.x in this JVM as member {@code member}, its event bus on loopback too. */
  public Future<Vertx> node(int member) {
    return node(member, eventBus -> {});
  }

  /** The same, with its event-bus options changed by {@code eventBus} (for example, to TLS). */
  Future<Vertx> node(int member, Consumer<EventBusOptions> eventBus) {
    Config c = ConfigUtil.loadConfig();
    c.setClusterName(name);
    c.setProperty("hazelcast.local.localAddress", "127.0.0.1");
    c.setProperty("hazelcast.wait.seconds.before.join", "0");
    c.setProperty("hazelcast.phone.home.enabled", "false");
    c.setProperty("hazelcast.logging.type", "slf4j");
    c.setProperty("hazelcast.heartbeat.interval.seconds", "1");
    c.setProperty("hazelcast.max.no.heartbeat.seconds", "5");
    c.getNetworkConfig().setPort(ports.get(member)).setPortAutoIncrement(false);
    c.getNetworkConfig().getInterfaces().setEnabled(true).addInterface("127.0.0.1");
    JoinConfig join = c.getNetworkConfig().getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true);
    ports.forEach(p -> join.getTcpIpConfig().addMember("127.0.0.1:" + p));
    VertxOptions options = new VertxOptions();
    options.getEventBusOptions().setHost("127.0.0.1").setPort(0).setClusterPublicHost("127.0.0.1");
    eventBus.accept(options.getEventBusOptions());
    return Vertx.builder().with(options).withClusterManager(new HazelcastClusterManager(c)).buildClustered();
  }

  /** The same settings for member {@code member} as a file for {@code -Dvertx.hazelcast.config}. */
  Path xmlFor(int member, Path dir) {
    StringBuilder members = new StringBuilder();
    ports.forEach(p -> members.append("<member>127.0.0.1:").append(p).append("</member>"));
    String xml = """
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
          <multimap name="__vertx.subs"><backup-count>1</backup-count><value-collection-type>SET</value-collection-type></multimap>
          <map name="__vertx.haInfo"><backup-count>1</backup-count></map>
          <map name="__vertx.nodeInfo"><backup-count>1</backup-count></map>
        </hazelcast>
        """.formatted(name, ports.get(member), members);
    try {
      return Files.writeString(dir.resolve("cluster-" + member + ".xml"), xml);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

}
