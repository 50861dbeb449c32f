package io.github.vertxbeanstalkd.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.HttpConfig;
import io.github.vertxbeanstalkd.config.ListenerConfig;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.config.TlsConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The listeners of {@code listeners} (beanstalkd #372, #32): IPv6, a unix domain socket and a TLS
 * address beside the short form's port, one queue and one connection table behind all of them.
 */
class ListenersTest extends DeployedServerTest {
  private static final SSLContext CLIENT = TlsClients.context(null);
  private static final Path DIR = temporaryDirectory();
  private static final Path SOCKET = DIR.resolve("beanstalkd.sock");

  private static Path temporaryDirectory() {
    try {
      return Files.createTempDirectory("listeners");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @AfterAll
  static void removeDirectory() throws IOException {
    Files.deleteIfExists(SOCKET);
    Files.deleteIfExists(DIR.resolve("stale.sock"));
    Files.deleteIfExists(DIR);
  }

  @Override
  protected ServerConfig config() {
    return ServerConfig.forTests()
        .withTls(new TlsConfig(false, "127.0.0.1", 0, TlsClients.file("server.pem"), TlsClients.file("server.key"),
            null))
        .withListeners(List.of(ListenerConfig.tcp("::1", 0), ListenerConfig.unix(SOCKET),
            ListenerConfig.tcp("127.0.0.1", 0).withTls()))
        .withHttp(HttpConfig.onFreePort("127.0.0.1"));
  }

  /** What a client sees over a whole session, byte for byte: every reply, then the close after quit. */
  private static final String SESSION = "use a\r\nwatch a\r\nput 0 0 60 2\r\nhi\r\nreserve-with-timeout 0\r\nstats-job 1\r\n"
      + "release 1 5 0\r\nlist-tubes-watched\r\nbad-command\r\nput 0 0 60 5\r\nxyzzy\r\ndelete 1\r\nquit\r\n";

  @Test
  void healthzNamesEveryListener() throws Exception {
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + server.httpPort() + "/healthz")).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), r.body());
    assertEquals(new JsonArray().add("127.0.0.1:" + port).add("[::1]:" + server.listenerPort(0)).add("unix:" + SOCKET)
        .add("127.0.0.1:" + server.listenerPort(2) + " (TLS)"), new JsonObject(r.body()).getJsonArray("listeners"));
  }

  @Test
  void theShortFormAndAListEntryAnswerTheSameBytes() throws IOException {
    // The short form as a config file gives it, and the same address as the one entry of a list.
    BeanstalkServer shortForm = another(ServerConfig.fromJson(new JsonObject().put("port", 0)
        .put("http", new JsonObject().put("enabled", false))));
    BeanstalkServer listed = another(ServerConfig.fromJson(new JsonObject().put("tcp", new JsonObject()
        .put("enabled", false)).put("listeners", new JsonArray().add(new JsonObject().put("host", "[::1]")
        .put("port", 0))).put("http", new JsonObject().put("enabled", false))));
    try {
      assertEquals(-1, listed.port(), "no short-form listener beside the list");
      String expected = "USING a\r\nWATCHING 2\r\nINSERTED 1\r\nRESERVED 1 2\r\nhi\r\n";
      String overShortForm = session(new InetSocketAddress("127.0.0.1", shortForm.port()));
      assertTrue(overShortForm.startsWith(expected), () -> overShortForm.replace("\r\n", "|"));
      assertTrue(overShortForm.endsWith("UNKNOWN_COMMAND\r\nINSERTED 2\r\nDELETED\r\n"), overShortForm);
      // stats-job says the job's age and time left, which may tick between the two sessions.
      assertEquals(withoutClocks(overShortForm),
          withoutClocks(session(new InetSocketAddress("::1", listed.listenerPort(0)))));
    } finally {
      await(shortForm.close());
      await(listed.close());
    }
  }

  @Test
  void aListenerThatCannotBindStopsTheStartAndIsNamed() {
    Throwable taken = awaitFailure(BeanstalkServer.deploy(vertx, ServerConfig.forTests()
        .withListeners(List.of(ListenerConfig.tcp("::1", 0), ListenerConfig.tcp("127.0.0.1", port)))));
    assertTrue(taken.getMessage().startsWith("config: 'listeners[1] (127.0.0.1:" + port + ")': cannot listen: "),
        taken::getMessage);
    Path nowhere = DIR.resolve("no-such-directory").resolve("b.sock");
    Throwable noDirectory = awaitFailure(BeanstalkServer.deploy(vertx, ServerConfig.forTests()
        .withListeners(List.of(ListenerConfig.unix(nowhere)))));
    assertTrue(noDirectory.getMessage().startsWith("config: 'listeners[0] (unix:" + nowhere + ")': cannot listen: "),
        noDirectory::getMessage);
  }

  /** The bytes a whole {@link #SESSION} gets back, until the server closes the connection. */
  private static String session(InetSocketAddress address) throws IOException {
    return assertTimeoutPreemptively(Duration.ofMillis(TestClient.READ_TIMEOUT_MILLIS), () -> {
      try (Socket s = connected(address)) {
        s.getOutputStream().write(SESSION.getBytes(StandardCharsets.US_ASCII));
        return new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
      }
    });
  }

  private static String withoutClocks(String replies) {
    return replies.replaceAll("(age|time-left): \\d+", "$1: _");
  }

  @Test
  void everyListenerServesTheSameQueue() throws IOException {
    int ipv6 = server.listenerPort(0);
    int tls = server.listenerPort(2);
    assertEquals(List.of("[::1]:" + ipv6, "unix:" + SOCKET, "127.0.0.1:" + tls + " (TLS)"), server.moreListening());
    assertEquals(-1, server.tlsPort(), "no TLS listener of the short form without tls.port");

    TestClient overIpv6 = track(TestClient.over(connected(new InetSocketAddress("::1", ipv6))));
    overIpv6.send("use shared").expect("USING shared");
    overIpv6.send("put 0 0 60 4", "ipv6").expect("INSERTED 1");

    TestClient overTls = track(TlsClients.connect(CLIENT, tls));
    overTls.send("use shared").expect("USING shared");
    overTls.send("put 0 0 60 3", "tls").expect("INSERTED 2");

    assertEquals("USING shared\r\nINSERTED 3\r\n", overUnixSocket(SOCKET, "use shared\r\nput 0 0 60 4\r\nunix\r\n", 2));

    TestClient plain = connect();
    plain.send("watch shared").expect("WATCHING 2");
    plain.send("reserve-with-timeout 0").expect("RESERVED 1 4", "ipv6");
    plain.send("reserve-with-timeout 0").expect("RESERVED 2 3", "tls");
    plain.send("reserve-with-timeout 0").expect("RESERVED 3 4", "unix");
    // One connection table: the unix client has left; the others count.
    assertEquals("3", plain.stats("stats").get("current-connections"));
  }

  @Test
  void aStaleSocketIsReplacedAndALiveOneOrAnythingElseIsLeftAlone() throws IOException {
    // What a server killed with -9 leaves: a socket file nobody accepts on.
    Path stale = DIR.resolve("stale.sock");
    try (ServerSocketChannel killed = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      killed.bind(UnixDomainSocketAddress.of(stale));
    }
    assertTrue(Files.exists(stale));
    BeanstalkServer restarted = another(ServerConfig.forTests().withListeners(List.of(ListenerConfig.unix(stale))));
    assertEquals("USING t\r\n", overUnixSocket(stale, "use t\r\n", 1));
    await(restarted.close());

    // The socket this test's server listens on belongs to it: a second server is refused.
    Throwable inUse = awaitFailure(BeanstalkServer.deploy(vertx,
        ServerConfig.forTests().withListeners(List.of(ListenerConfig.unix(SOCKET)))));
    assertTrue(inUse.getMessage().contains(SOCKET + ": another process listens on this socket"), inUse::getMessage);
    assertEquals("USING t\r\n", overUnixSocket(SOCKET, "use t\r\n", 1));

    Path file = DIR.resolve("not-a-socket");
    Files.writeString(file, "keep me");
    try {
      Throwable refused = awaitFailure(BeanstalkServer.deploy(vertx,
          ServerConfig.forTests().withListeners(List.of(ListenerConfig.unix(file)))));
      assertTrue(refused.getMessage().contains(file + ": the path exists and is not a socket"), refused::getMessage);
      assertEquals("keep me", Files.readString(file));
    } finally {
      Files.delete(file);
    }
  }

  private BeanstalkServer another(ServerConfig config) {
    return await(BeanstalkServer.deploy(vertx, config));
  }

  private static Throwable awaitFailure(io.vertx.core.Future<?> f) {
    return f.toCompletionStage().toCompletableFuture().handle((ok, e) -> e).join();
  }

  private static Socket connected(InetSocketAddress address) throws IOException {
    Socket s = new Socket();
    s.setSoTimeout(TestClient.READ_TIMEOUT_MILLIS);
    s.connect(address, TestClient.READ_TIMEOUT_MILLIS);
    return s;
  }

  /** Sends {@code text} over the unix socket and returns the first {@code lines} lines of the reply. */
  private static String overUnixSocket(Path socket, String text, int lines) {
    return assertTimeoutPreemptively(Duration.ofMillis(TestClient.READ_TIMEOUT_MILLIS), () -> {
      try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
        channel.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII)));
        StringBuilder reply = new StringBuilder();
        ByteBuffer in = ByteBuffer.allocate(4096);
        while (reply.chars().filter(c -> c == '\n').count() < lines && channel.read(in) >= 0) {
          reply.append(StandardCharsets.US_ASCII.decode(in.flip()));
          in.clear();
        }
        return reply.toString();
      }
    });
  }
}
