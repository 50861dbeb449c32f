package io.github.vertxbeanstalkd.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.config.TlsConfig;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** A TLS file that cannot be read or used fails start-up with one line naming the key and the file. */
@ExtendWith(VertxExtension.class)
class TlsCredentialsTest {
  private static final Path CERT = TlsClients.file("server.pem");
  private static final Path KEY = TlsClients.file("server.key");

  @TempDir
  Path dir;

  @Test
  void aMissingCertificateFile(Vertx vertx) {
    Path missing = dir.resolve("nope.pem");
    assertEquals("config: 'tls.cert' " + missing + ": no such file", failure(vertx, tls(missing, KEY)));
  }

  @Test
  void aMissingKeyFileOrClientCa(Vertx vertx) {
    Path missing = dir.resolve("nope.key");
    assertEquals("config: 'tls.key' " + missing + ": no such file", failure(vertx, tls(CERT, missing)));
    assertEquals("config: 'tls.clientCa' " + missing + ": no such file",
        failure(vertx, tls(CERT, KEY).withClientCa(missing)));
  }

  @Test
  void aDirectoryInsteadOfAFile(Vertx vertx) {
    String message = failure(vertx, tls(dir, KEY));
    assertTrue(message.startsWith("config: 'tls.cert' " + dir + ": cannot be read: "), message);
  }

  @Test
  void aKeyWhereTheCertificateShouldBe(Vertx vertx) {
    assertEquals("config: 'tls.cert' " + KEY + ": not a PEM certificate file (BEGIN CERTIFICATE): "
        + "Missing -----BEGIN CERTIFICATE----- delimiter", failure(vertx, tls(KEY, KEY)));
  }

  @Test
  void aCertificateWhereTheKeyShouldBe(Vertx vertx) {
    String message = failure(vertx, tls(CERT, CERT));
    assertTrue(message.startsWith("config: 'tls.key' " + CERT + ": not a usable unencrypted PEM private key"), message);
  }

  @Test
  void anEncryptedKeyIsNotUsable(Vertx vertx) throws IOException {
    Path encrypted = write("encrypted.key",
        "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIBvTBXBgkqhkiG9w0BBQ0wSjApBgkqhkiG9w0BBQwwHAQI\n-----END ENCRYPTED PRIVATE KEY-----\n");
    String message = failure(vertx, tls(CERT, encrypted));
    assertTrue(message.startsWith("config: 'tls.key' " + encrypted + ": not a usable unencrypted PEM private key"),
        message);
  }

  @Test
  void damagedBase64(Vertx vertx) throws IOException {
    Path cert = write("damaged.pem", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
    String message = failure(vertx, tls(cert, KEY));
    assertTrue(message.startsWith("config: 'tls.cert' " + cert + ": not a PEM certificate file"), message);
    Path key = write("damaged.key", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
    message = failure(vertx, tls(CERT, key));
    assertTrue(message.startsWith("config: 'tls.key' " + key + ": not a usable unencrypted PEM private key"), message);
  }

  @Test
  void aKeyOfAnotherCertificate(Vertx vertx) {
    Path other = TlsClients.file("client.key");
    assertEquals("config: 'tls.key' " + other + " does not belong to the first certificate of 'tls.cert' " + CERT,
        failure(vertx, tls(CERT, other)));
  }

  @Test
  void aClientCaWithoutCertificates(Vertx vertx) throws IOException {
    Path empty = write("empty.pem", "");
    assertEquals("config: 'tls.clientCa' " + empty + ": not a PEM certificate file (BEGIN CERTIFICATE): "
        + "Missing -----BEGIN CERTIFICATE----- delimiter", failure(vertx, tls(CERT, KEY).withClientCa(empty)));
  }

  @Test
  void theSameFailureThroughTheJsonConfig(Vertx vertx) {
    Path missing = dir.resolve("nope.pem");
    JsonObject json = new JsonObject().put("port", 0)
        .put("tls", new JsonObject().put("port", 0).put("cert", missing.toString()).put("key", KEY.toString()));
    Throwable e = join(BeanstalkServer.deploy(vertx, json));
    assertEquals("config: 'tls.cert' " + missing + ": no such file", e.getMessage());
  }

  private static TlsConfig tls(Path cert, Path key) {
    return TlsConfig.onFreePort("127.0.0.1", cert, key);
  }

  /** Deploys, expects the start to fail before anything was deployed, and returns its message. */
  private static String failure(Vertx vertx, TlsConfig tls) {
    Throwable e = join(BeanstalkServer.deploy(vertx, ServerConfig.forTests().withTls(tls)));
    assertEquals(0, e.getStackTrace().length, "an operator's error, not a bug: no stack trace");
    assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    assertTrue(vertx.deploymentIDs().isEmpty(), "nothing deployed: " + vertx.deploymentIDs());
    return e.getMessage();
  }

  private static Throwable join(io.vertx.core.Future<?> f) {
    try {
      f.toCompletionStage().toCompletableFuture().join();
      throw new AssertionError("expected the start to fail");
    } catch (CompletionException e) {
      return e.getCause();
    }
  }

  private Path write(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text);
  }
}
