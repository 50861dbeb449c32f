package io.github.vertxbeanstalkd.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.config.TlsConfig;
import java.io.IOException;
import java.net.SocketTimeoutException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;

/** tls.clientCa: only clients with a certificate the CA signed get past the handshake. */
class MutualTlsTest extends DeployedServerTest {

  @Override
  protected ServerConfig config() {
    return ServerConfig.forTests().withTls(TlsConfig.onFreePort("127.0.0.1", TlsClients.file("server.pem"),
        TlsClients.file("server.key")).withClientCa(TlsClients.file("ca.pem")));
  }

  @Test
  void aClientWithACertificateTheCaSignedIsServed() {
    TestClient tls = track(TlsClients.connect(TlsClients.context("client"), server.tlsPort()));
    tls.send("put 0 0 60 2", "ok").expect("INSERTED 1");
    // The plain port is not affected by tls.clientCa.
    connect().send("peek 1").expect("FOUND 1 2", "ok");
  }

  @Test
  void aClientWithoutACertificateIsRefused() {
    assertRefused(TlsClients.context(null), "TLSv1.3");
    assertRefused(TlsClients.context(null), "TLSv1.2");
  }

  @Test
  void aClientWithACertificateTheCaDidNotSignIsRefused() {
    assertRefused(TlsClients.context("stranger"), "TLSv1.3");
    assertRefused(TlsClients.context("stranger"), "TLSv1.2");
  }

  /**
   * The server refuses before any command is read. When the client hears it depends on the
   * protocol: in TLS 1.2 during its handshake (the alert, or a broken pipe if the server closed
   * before the client's last write); in TLS 1.3 the client's side of the handshake may end before
   * the server has judged the certificate, and the alert (bad_certificate, certificate_unknown)
   * arrives on the first read.
   */
  private void assertRefused(SSLContext client, String protocol) {
    try (SSLSocket socket = TlsClients.handshake(client, server.tlsPort(), protocol)) {
      socket.getOutputStream().write("put 0 0 60 1\r\nx\r\n".getBytes());
      int b = socket.getInputStream().read();
      if (b >= 0) {
        fail(protocol + ": expected a refusal, got byte " + b);
      }
    } catch (SocketTimeoutException e) {
      fail(protocol + ": the server neither refused nor answered");
    } catch (IOException refused) {
      // As expected: an SSLException with the server's alert, or the connection reset after it.
    }
    // Nothing from the refused client reached the queue.
    assertEquals("0", connect().stats("stats").get("total-jobs"));
  }
}
