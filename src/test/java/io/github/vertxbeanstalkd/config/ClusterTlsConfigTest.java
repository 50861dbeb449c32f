package io.github.vertxbeanstalkd.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClusterTlsConfigTest {
  private static final ClusterTlsConfig FILES =
      new ClusterTlsConfig(Path.of("/etc/bs/node.pem"), Path.of("/etc/bs/node.key"), Path.of("/etc/bs/ca.pem"));

  private static ClusterTlsConfig read(JsonObject json) {
    return ServerConfig.clusterTls(json, Map.of());
  }

  @Test
  void offUnlessSet() {
    assertEquals(ClusterTlsConfig.off(), read(new JsonObject()));
    assertEquals(ClusterTlsConfig.off(), read(null));
    assertFalse(ClusterTlsConfig.off().isEnabled());
    assertTrue(FILES.isEnabled());
  }

  @Test
  void nestedKeysAreRead() {
    JsonObject json = new JsonObject().put("cluster", new JsonObject().put("tls", new JsonObject()
        .put("cert", "/etc/bs/node.pem").put("key", "/etc/bs/node.key").put("ca", "/etc/bs/ca.pem")));
    assertEquals(FILES, read(json));
  }

  @Test
  void flatKeysAreReadAndWinOverNestedOnes() {
    JsonObject flat = new JsonObject().put("cluster.tls.cert", "/etc/bs/node.pem")
        .put("cluster.tls.key", "/etc/bs/node.key").put("cluster.tls.ca", "/etc/bs/ca.pem");
    assertEquals(FILES, read(flat));
    JsonObject both = flat.copy().put("cluster", new JsonObject().put("tls", new JsonObject()
        .put("cert", "nested.pem").put("key", "nested.key").put("ca", "nested-ca.pem")));
    assertEquals(FILES, read(both));
  }

  @Test
  void environmentVariablesWinOverTheFile() {
    JsonObject file = new JsonObject().put("cluster.tls.cert", "file.pem").put("cluster.tls.key", "file.key")
        .put("cluster.tls.ca", "file-ca.pem");
    Map<String, String> env = Map.of("BEANSTALKD_CLUSTER_TLS_CERT", "/etc/bs/node.pem",
        "BEANSTALKD_CLUSTER_TLS_KEY", "/etc/bs/node.key", "BEANSTALKD_CLUSTER_TLS_CA", "/etc/bs/ca.pem",
        "BEANSTALKD_PORT", "not read here");
    assertEquals(FILES, ServerConfig.clusterTls(file, env));
    // The environment alone is a whole setting too.
    assertEquals(FILES, ServerConfig.clusterTls(new JsonObject(), env));
    // vertx-config hands the deployment the same variables as keys of the merged JSON.
    assertTrue(ServerConfig.environmentVariables().containsAll(
        List.of("BEANSTALKD_CLUSTER_TLS_CERT", "BEANSTALKD_CLUSTER_TLS_KEY", "BEANSTALKD_CLUSTER_TLS_CA")));
    JsonObject merged = file.copy();
    env.forEach(merged::put);
    merged.remove("BEANSTALKD_PORT");
    assertEquals(FILES, read(merged));
  }

  @Test
  void theServerConfigAcceptsTheSectionInEveryForm() {
    ServerConfig.fromJson(new JsonObject().put("cluster", new JsonObject().put("tls", new JsonObject()
        .put("cert", "c.pem").put("key", "k.pem").put("ca", "ca.pem"))));
    ServerConfig.fromJson(new JsonObject().put("cluster.tls.cert", "c.pem").put("cluster.tls.key", "k.pem")
        .put("cluster.tls.ca", "ca.pem"));
    ServerConfig.fromJson(new JsonObject().put("BEANSTALKD_CLUSTER_TLS_CERT", "c.pem")
        .put("BEANSTALKD_CLUSTER_TLS_KEY", "k.pem").put("BEANSTALKD_CLUSTER_TLS_CA", "ca.pem"));
  }

  @Test
  void theThreeKeysGoTogether() {
    assertEquals("config: 'cluster.tls.key' must be set when 'cluster.tls.cert' is: 'cluster.tls.cert', "
        + "'cluster.tls.key' and 'cluster.tls.ca' go together",
        rejected(new JsonObject().put("cluster.tls.cert", "c.pem").put("cluster.tls.ca", "ca.pem")));
    assertEquals("config: 'cluster.tls.ca' must be set when 'cluster.tls.cert' is: 'cluster.tls.cert', "
        + "'cluster.tls.key' and 'cluster.tls.ca' go together",
        rejected(new JsonObject().put("cluster", new JsonObject().put("tls", new JsonObject()
            .put("cert", "c.pem").put("key", "k.pem")))));
    assertEquals("config: 'cluster.tls.cert' must be set when 'cluster.tls.ca' is: 'cluster.tls.cert', "
        + "'cluster.tls.key' and 'cluster.tls.ca' go together",
        rejected(new JsonObject().put("BEANSTALKD_CLUSTER_TLS_CA", "ca.pem")));
    assertEquals("config: 'cluster.tls.cert' must be set when 'cluster.tls.key' is: 'cluster.tls.cert', "
        + "'cluster.tls.key' and 'cluster.tls.ca' go together",
        assertThrows(IllegalArgumentException.class,
            () -> ServerConfig.clusterTls(new JsonObject(), Map.of("BEANSTALKD_CLUSTER_TLS_KEY", "k.pem")))
            .getMessage());
    assertThrows(IllegalArgumentException.class, () -> new ClusterTlsConfig(Path.of("c.pem"), Path.of("k.pem"), null));
  }

  @Test
  void badValuesAreRejectedInOneLineNamingTheKey() {
    assertEquals("config: 'cluster.tls.cert' must be a non-empty string, got 5",
        rejected(new JsonObject().put("cluster.tls.cert", 5).put("cluster.tls.key", "k").put("cluster.tls.ca", "c")));
    assertEquals("config: 'cluster.tls.ca' must be a non-empty string, got  ",
        rejected(new JsonObject().put("cluster.tls.cert", "c").put("cluster.tls.key", "k").put("cluster.tls.ca", " ")));
    assertEquals("config: 'cluster.tls.key' is not a valid path: a\\u0000b",
        rejected(new JsonObject().put("cluster.tls.cert", "c").put("cluster.tls.key", "a\u0000b")
            .put("cluster.tls.ca", "ca")));
    assertEquals("config: unknown key 'cluster.tls.clientCa'",
        rejected(new JsonObject().put("cluster", new JsonObject().put("tls", new JsonObject().put("clientCa", "c")))));
    assertEquals("config: unknown key 'cluster.tls.certificate'",
        rejected(new JsonObject().put("cluster.tls.certificate", "c")));
    assertEquals("config: unknown key 'cluster.host'",
        rejected(new JsonObject().put("cluster", new JsonObject().put("host", "10.0.0.1"))));
    assertEquals("config: unknown key 'cluster.tls'", rejected(new JsonObject().put("cluster.tls", new JsonObject())));
    assertEquals("config: 'cluster' must be an object, got on", rejected(new JsonObject().put("cluster", "on")));
    assertEquals("config: 'cluster.tls' must be an object, got true",
        rejected(new JsonObject().put("cluster", new JsonObject().put("tls", true))));
  }

  /** Rejected by the launcher's early read and by the deployment's full check alike, with the same line. */
  private static String rejected(JsonObject json) {
    String early = assertThrows(IllegalArgumentException.class, () -> read(json)).getMessage();
    String full = assertThrows(IllegalArgumentException.class, () -> ServerConfig.fromJson(json)).getMessage();
    assertEquals(early, full);
    return early;
  }
}
