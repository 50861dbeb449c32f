package io.github.vertxbeanstalkd;

import io.github.vertxbeanstalkd.config.ClusterTlsConfig;
import io.github.vertxbeanstalkd.tcp.TlsCredentials;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.http.ClientAuth;
import org.slf4j.Logger;

/**
 * The encryption of the clustered event bus, as the launcher sets it up from {@code cluster.tls.*}:
 * the files checked before Vert.x joins the cluster, then TLS on both ends of every connection
 * between nodes, each end presenting its certificate and accepting only one the cluster's CA signed.
 */
final class ClusterTls {
  private ClusterTls() {}

  /**
   * Checks the files as the TLS listener's are checked and returns their contents. Vert.x's PEM
   * reader needs a Vert.x instance, and the launcher's does not exist yet, so a short-lived one of
   * its own does the reading. Blocking.
   *
   * @throws IllegalArgumentException with a one-line message naming the key and the file
   */
  static TlsCredentials load(ClusterTlsConfig tls) {
    Vertx reader = Vertx.builder().with(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1)
        .setInternalBlockingPoolSize(1)).build();
    try {
      return TlsCredentials.load(reader, "cluster.tls.", tls.cert(), tls.key(), "ca", tls.ca());
    } finally {
      reader.close().toCompletionStage().toCompletableFuture().join();
    }
  }

  /**
   * Turns TLS on for the event bus's server and client with these credentials: a node that connects
   * must present a certificate the CA signed, and so must the node it connects to. Vert.x checks the
   * CA's signature, not host names: the signature is what makes a node a member.
   *
   * @throws IllegalArgumentException when {@code --options} already set TLS credentials of its own
   */
  static void applyTo(EventBusOptions options, TlsCredentials credentials) {
    if (options.getKeyCertOptions() != null || options.getTrustOptions() != null) {
      throw new IllegalArgumentException("config: 'cluster.tls.*' is set and --options' eventBusOptions has TLS "
          + "credentials of its own; use one or the other");
    }
    options.setSsl(true)
        .setKeyCertOptions(credentials.keyCertOptions())
        .setTrustOptions(credentials.trustOptions())
        .setClientAuth(ClientAuth.REQUIRED)
        // EventBusOptions trusts every server by default (DEFAULT_TRUST_ALL = true), which would send
        // messages to any member that registered an address, whatever its certificate.
        .setTrustAll(false);
  }

  /**
   * One line at start: whether the cluster's event bus is encrypted, at warn when it is not, since
   * job bodies then cross the network in the clear and any member can use the queue.
   */
  static void logState(Logger log, Vertx vertx, EventBusOptions options, ClusterTlsConfig tls) {
    if (!vertx.isClustered()) {
      if (tls.isEnabled()) {
        log.warn("cluster.tls is set but this node is not clustered (no -cluster): there is no event bus "
            + "between nodes to encrypt");
      }
      return;
    }
    if (!options.isSsl()) {
      log.warn("cluster event bus: NOT encrypted: job bodies cross the network in the clear and any member of "
          + "the cluster can use the queue; set cluster.tls.cert, cluster.tls.key and cluster.tls.ca "
          + "(docs: src/site/markdown/cluster.md, Encrypted cluster traffic)");
    } else if (tls.isEnabled()) {
      log.info("cluster event bus: encrypted (TLS), certificate {}, nodes must present a certificate signed by {}",
          tls.cert(), tls.ca());
    } else {
      log.info("cluster event bus: encrypted (TLS, from --options' eventBusOptions), client certificates {}",
          options.getClientAuth());
    }
  }
}
