package io.github.vertxbeanstalkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.config.ClusterTlsConfig;
import io.github.vertxbeanstalkd.tcp.TlsCredentials;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.net.JksOptions;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the launcher does with {@code cluster.tls} before Vert.x joins the cluster: the files are
 * checked like the TLS listener's, and the event bus gets TLS that both ends of a connection check.
 * (cluster/EncryptedClusterTest runs it across nodes.)
 */
class ClusterTlsTest {
  private static final Path CERT = file("server.pem");
  private static final Path KEY = file("server.key");
  private static final Path CA = file("ca.pem");

  @TempDir
  Path dir;

  @Test
  void theEventBusGetsTlsWithRequiredCertificatesAndTrustsOnlyTheCa() {
    EventBusOptions options = new EventBusOptions();
    assertTrue(options.isTrustAll(), "Vert.x's default, which applyTo must undo");
    ClusterTls.applyTo(options, ClusterTls.load(new ClusterTlsConfig(CERT, KEY, CA)));
    assertTrue(options.isSsl());
    assertEquals(ClientAuth.REQUIRED, options.getClientAuth());
    assertFalse(options.isTrustAll(), "a node that trusts every certificate would send to any member");
    assertNotNull(options.getKeyCertOptions());
    assertNotNull(options.getTrustOptions());
    // The event bus's client is built from the options' JSON: the settings must survive it.
    EventBusOptions copy = new EventBusOptions(options.toJson());
    assertTrue(copy.isSsl());
    assertFalse(copy.isTrustAll());
    assertEquals(ClientAuth.REQUIRED, copy.getClientAuth());
    assertNotNull(copy.getKeyCertOptions());
    assertNotNull(copy.getTrustOptions());
  }

  @Test
  void credentialsOfItsOwnInTheVertxOptionsAreAConflict() {
    TlsCredentials credentials = ClusterTls.load(new ClusterTlsConfig(CERT, KEY, CA));
    EventBusOptions options = new EventBusOptions().setKeyCertOptions(new JksOptions().setPath("node.jks"));
    assertEquals("config: 'cluster.tls.*' is set and --options' eventBusOptions has TLS credentials of its own; "
        + "use one or the other",
        assertThrows(IllegalArgumentException.class, () -> ClusterTls.applyTo(options, credentials)).getMessage());
  }

  @Test
  void theFilesAreCheckedLikeTheTlsListenersNamingTheClusterKeys() {
    Path missing = dir.resolve("nope.pem");
    assertEquals("config: 'cluster.tls.ca' " + missing + ": no such file",
        rejected(new ClusterTlsConfig(CERT, KEY, missing)));
    assertEquals("config: 'cluster.tls.cert' " + missing + ": no such file",
        rejected(new ClusterTlsConfig(missing, KEY, CA)));
    Path otherKey = file("client.key");
    assertEquals("config: 'cluster.tls.key' " + otherKey + " does not belong to the first certificate of "
        + "'cluster.tls.cert' " + CERT, rejected(new ClusterTlsConfig(CERT, otherKey, CA)));
    assertEquals("config: 'cluster.tls.ca' " + KEY + ": not a PEM certificate file (BEGIN CERTIFICATE): "
        + "Missing -----BEGIN CERTIFICATE----- delimiter", rejected(new ClusterTlsConfig(CERT, KEY, KEY)));
    assertTrue(rejected(new ClusterTlsConfig(CERT, CERT, CA))
        .startsWith("config: 'cluster.tls.key' " + CERT + ": not a usable unencrypted PEM private key"));
  }

  private static String rejected(ClusterTlsConfig tls) {
    return assertThrows(IllegalArgumentException.class, () -> ClusterTls.load(tls)).getMessage();
  }

  private static Path file(String name) {
    try {
      return Path.of(ClusterTlsTest.class.getResource("/tls/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
