package io.github.vertxbeanstalkd.config;

import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * The {@code cluster.tls} section: this node's certificate and key, and the CA that signs every node
 * of the cluster, as PEM files. When set, the launcher encrypts the clustered event bus with them and
 * requires a certificate that CA signed from every node that connects; the three go together.
 *
 * @param cert this node's certificate, then any intermediate CA certificates; presented both when
 *     it accepts a connection from another node and when it opens one
 * @param key its private key, unencrypted
 * @param ca the cluster's CA certificates: a node is trusted when one of them signed its certificate
 */
public record ClusterTlsConfig(Path cert, Path key, Path ca) {
  static final String SECTION = "cluster.tls";
  static final Set<String> KEYS = Set.of("cert", "key", "ca");
  static final Map<String, String> ENVIRONMENT = Map.of(
      "BEANSTALKD_CLUSTER_TLS_CERT", "cluster.tls.cert",
      "BEANSTALKD_CLUSTER_TLS_KEY", "cluster.tls.key",
      "BEANSTALKD_CLUSTER_TLS_CA", "cluster.tls.ca");

  public ClusterTlsConfig {
    Path[] files = {cert, key, ca};
    String[] names = {"cert", "key", "ca"};
    String given = null;
    String missing = null;
    for (int i = 0; i < files.length; i++) {
      if (files[i] != null && given == null) {
        given = names[i];
      } else if (files[i] == null && missing == null) {
        missing = names[i];
      }
    }
    if (given != null && missing != null) {
      // Half a setting would leave the bus in the clear, or fail later with a message about Vert.x.
      throw new IllegalArgumentException("config: 'cluster.tls." + missing + "' must be set when 'cluster.tls."
          + given + "' is: 'cluster.tls.cert', 'cluster.tls.key' and 'cluster.tls.ca' go together");
    }
  }

  /** The cluster's event bus as Vert.x leaves it: not encrypted. The default. */
  public static ClusterTlsConfig off() {
    return new ClusterTlsConfig(null, null, null);
  }

  public boolean isEnabled() {
    return cert != null;
  }

  static ClusterTlsConfig fromJson(JsonObject json) {
    ConfigSection section = new ConfigSection(SECTION, KEYS, ENVIRONMENT, json);
    return new ClusterTlsConfig(section.path("cert"), section.path("key"), section.path("ca"));
  }
}
