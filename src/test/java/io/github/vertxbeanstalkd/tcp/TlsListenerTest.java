package io.github.vertxbeanstalkd.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.EventBusConfig;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.config.TlsConfig;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Set;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;

/** The TLS listener: the same protocol and the same queue as the plain port, TLS 1.2 and 1.3 only. */
class TlsListenerTest extends DeployedServerTest {
  private static final SSLContext CLIENT = TlsClients.context(null);

  @Override
  protected ServerConfig config() {
    return ServerConfig.forTests()
        .withTls(TlsConfig.onFreePort("127.0.0.1", TlsClients.file("server.pem"), TlsClients.file("server.key")));
  }

  @Test
  void aJobPutOverTlsIsTheSameJobOnThePlainPort() {
    assertTrue(server.tlsPort() > 0 && server.tlsPort() != port, "tls port " + server.tlsPort());
    // What /readyz and the log say.
    assertEquals("127.0.0.1:" + port + " and 127.0.0.1:" + server.tlsPort() + " (TLS)", server.listening());
    TestClient tls = track(TlsClients.connect(CLIENT, server.tlsPort()));
    TestClient plain = connect();
    tls.send("use jobs").expect("USING jobs");
    tls.send("put 0 0 60 5", "hello").expect("INSERTED 1");
    plain.send("use jobs").expect("USING jobs");
    plain.send("peek-ready").expect("FOUND 1 5", "hello");
    tls.send("watch jobs").expect("WATCHING 2");
    tls.send("reserve-with-timeout 0").expect("RESERVED 1 5", "hello");
    assertEquals("reserved", plain.stats("stats-job 1").get("state"));
    tls.send("delete 1").expect("DELETED");
    plain.send("peek 1").expect("NOT_FOUND");
    // One connection table: both clients count.
    assertEquals("2", plain.stats("stats").get("current-connections"));
  }

  @Test
  void oneConnectionCapForBothListeners() throws InterruptedException {
    BeanstalkServer capped = another(config().withMaxConnections(1));
    TestClient plain = track(TestClient.connect(capped.port()));
    plain.send("use t").expect("USING t");
    // Over the cap: the handshake completes, then the connection is closed before any command.
    TestClient tls = track(TlsClients.connect(CLIENT, capped.tlsPort()));
    tls.expectClosed();
    assertEquals("1", plain.stats("stats").get("rejected-connections"));
    plain.close();
    // Once the plain client has left, a TLS client is let in.
    assertTrue(eventually(2_000, () -> {
      try (TestClient next = TlsClients.connect(CLIENT, capped.tlsPort())) {
        next.send("use t").expect("USING t");
        return true;
      } catch (AssertionError | RuntimeException closed) {
        return false;
      }
    }));
    await(capped.close());
  }

  @Test
  void aTls13ClientHalfClosingWhileBlockedInAReserveGetsTimedOutThenTheClose() throws IOException {
    // As on the plain port (BEHAVIOURS.md 1); TLS 1.3 lets a client close its half (close_notify).
    TestClient worker = track(TestClient.over(TlsClients.handshake(CLIENT, server.tlsPort(), "TLSv1.3")));
    worker.send("reserve");
    worker.expectNothingFor(100);
    worker.socket().shutdownOutput();
    worker.expect("TIMED_OUT");
    worker.expectClosed();
  }

  @Test
  void aCloseNotifyWithoutFinEndsTheConnectionAfterItsReplies() throws IOException {
    // stunnel and OpenSSL clients end with close_notify and wait for ours before closing TCP.
    for (String protocol : new String[] {"TLSv1.3", "TLSv1.2"}) {
      try (Socket tcp = new Socket("127.0.0.1", server.tlsPort());
          SSLSocket socket = TlsClients.handshakeOver(tcp, CLIENT, protocol)) {
        TestClient client = TestClient.over(socket);
        client.send("use t").expect("USING t");
        client.send("reserve-with-timeout 5");
        client.expectNothingFor(50);
        socket.shutdownOutput();
        if (protocol.equals("TLSv1.3")) {
          // TLS 1.3 closes one direction at a time: the reserve is answered, as on a FIN.
          client.expect("TIMED_OUT");
        }
        client.expectClosed();
      }
    }
  }

  @Test
  void theNegotiatedProtocolIsTls13OrTls12() throws IOException {
    try (SSLSocket socket = TlsClients.handshake(CLIENT, server.tlsPort())) {
      assertTrue(Set.of("TLSv1.3", "TLSv1.2").contains(socket.getSession().getProtocol()),
          socket.getSession().getProtocol());
    }
    SSLSocket socket = TlsClients.handshake(CLIENT, server.tlsPort(), "TLSv1.2");
    assertEquals("TLSv1.2", socket.getSession().getProtocol());
    TestClient tls12 = track(TestClient.over(socket));
    tls12.send("put 0 0 60 2", "hi").expect("INSERTED 1");
  }

  @Test
  void aClientOfferingAtMostTls11IsRefusedWithAProtocolVersionAlert() throws IOException {
    // Hand-made: the JDK's own client no longer offers TLS 1.1 (jdk.tls.disabledAlgorithms),
    // and the server must refuse it on its own settings.
    try (Socket socket = new Socket()) {
      socket.setSoTimeout(TestClient.READ_TIMEOUT_MILLIS);
      socket.connect(new InetSocketAddress("127.0.0.1", server.tlsPort()));
      OutputStream out = socket.getOutputStream();
      out.write(clientHello(0x0302));
      out.flush();
      DataInputStream in = new DataInputStream(socket.getInputStream());
      byte[] record = new byte[7];
      in.readFully(record);
      assertEquals(0x15, record[0], "an alert record");
      assertEquals(2, record[5], "fatal");
      assertEquals(70, record[6], "protocol_version");
      assertEquals(-1, readUntilClosed(in), "then the connection closes");
    }
    // The listener goes on serving the others.
    track(TlsClients.connect(CLIENT, server.tlsPort())).send("use t").expect("USING t");
  }

  @Test
  void plainTextOnTheTlsPortIsNotServed() throws IOException {
    try (Socket socket = new Socket()) {
      socket.setSoTimeout(TestClient.READ_TIMEOUT_MILLIS);
      socket.connect(new InetSocketAddress("127.0.0.1", server.tlsPort()));
      socket.getOutputStream().write("stats\r\n".getBytes());
      InputStream in = socket.getInputStream();
      int first = in.read();
      // An alert or nothing, never a beanstalkd reply.
      assertTrue(first == -1 || first == 0x15, "got byte " + first);
    }
  }

  @Test
  void gracefulShutdownClosesTlsConnectionsAndStopsTheTlsListener() throws IOException {
    TestClient tls = track(TlsClients.connect(CLIENT, server.tlsPort()));
    tls.send("put 0 0 60 1", "x").expect("INSERTED 1");
    int tlsPort = server.tlsPort();
    await(server.shutdown(2_000));
    tls.expectClosed();
    assertThrows(IOException.class, () -> TlsClients.handshake(CLIENT, tlsPort).close());
  }

  @Test
  void tlsOnlyWithoutThePlainListener() {
    BeanstalkServer tlsOnly = another(config().withoutTcp());
    assertEquals(-1, tlsOnly.port());
    assertTrue(tlsOnly.tlsPort() > 0);
    try (TestClient tls = TlsClients.connect(CLIENT, tlsOnly.tlsPort())) {
      tls.send("put 0 0 60 1", "x").expect("INSERTED 1");
    }
    await(tlsOnly.close());
  }

  @Test
  void tlsPortIsMinusOneWhenOff() {
    BeanstalkServer plain = another(ServerConfig.forTests());
    assertEquals(-1, plain.tlsPort());
    assertTrue(plain.port() > 0);
    await(plain.close());
  }

  @Test
  void aKeyInPkcs1IsAcceptedToo() {
    BeanstalkServer rsa = another(ServerConfig.forTests().withTls(
        TlsConfig.onFreePort("127.0.0.1", TlsClients.file("server.pem"), TlsClients.file("server-rsa.key"))));
    try (TestClient tls = TlsClients.connect(CLIENT, rsa.tlsPort())) {
      tls.send("use t").expect("USING t");
    }
    await(rsa.close());
  }

  /** A second server in the test's Vert.x, without the event-bus front (whose address the first one holds). */
  private BeanstalkServer another(ServerConfig config) {
    return await(BeanstalkServer.deploy(vertx, config.withEventBus(new EventBusConfig(false, EventBusConfig.DEFAULT_ADDRESS))));
  }

  /** A ClientHello whose highest version is {@code version} (0x0302 = TLS 1.1), without extensions. */
  static byte[] clientHello(int version) {
    byte[] body = new byte[2 + 32 + 1 + 2 + 4 + 2];
    int i = 0;
    body[i++] = (byte) (version >> 8);
    body[i++] = (byte) version;
    i += 32; // random: zeros do for a refusal
    body[i++] = 0; // no session id
    body[i++] = 0;
    body[i++] = 4; // two cipher suites
    body[i++] = (byte) 0xc0; // TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA
    body[i++] = 0x13;
    body[i++] = 0x00; // TLS_RSA_WITH_AES_128_CBC_SHA
    body[i++] = 0x2f;
    body[i++] = 1; // one compression method: none
    body[i] = 0;
    byte[] record = new byte[5 + 4 + body.length];
    record[0] = 0x16; // handshake
    record[1] = 0x03;
    record[2] = 0x01;
    record[3] = (byte) ((4 + body.length) >> 8);
    record[4] = (byte) (4 + body.length);
    record[5] = 0x01; // client_hello
    record[6] = 0;
    record[7] = (byte) (body.length >> 8);
    record[8] = (byte) body.length;
    System.arraycopy(body, 0, record, 9, body.length);
    return record;
  }

  private static int readUntilClosed(InputStream in) throws IOException {
    int b;
    do {
      b = in.read();
    } while (b >= 0);
    return b;
  }
}
