package io.github.vertxbeanstalkd.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.ChildJvm;
import io.github.vertxbeanstalkd.TestClient;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clients that pipeline commands and never read their replies, against a real server with a small
 * heap: the server stops reading them, stops copying bodies its front has not taken delivery of,
 * disconnects the ones holding the most, and goes on serving.
 */
class PeekFloodTest {
  private static final Pattern LISTENING = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");
  private static final int FLOOD_MILLIS = 4_000;
  /** -Xmx128m with the collector settings of conf/jvm.options. */
  private static final List<String> SERIAL_128 =
      List.of("-Xmx128m", "-XX:+UseSerialGC", "-Xmn32m", "-XX:MaxTenuringThreshold=1");

  @TempDir
  Path dir;

  /**
   * Each peek's reply is a copy of the body, made on the engine's turn before the front counts it.
   * Before the engine waited for its front, the 16 clients {@code -Xmx64m} admits (the rest are
   * closed at once) ended the server within seconds, and 64 did so with {@code -Xmx128m}.
   */
  @Test
  void clientsThatPeekALargeJobAndNeverReadDoNotEndTheServer() throws Exception {
    floodAndCheck(List.of("-Xmx64m"), 256, lines("peek 1"), 0);
  }

  /**
   * A small reply each, but each client's input and commands are held while it does not read, and
   * its close makes the server read all its socket buffered. With {@code -Xmx128m}, whose default
   * maxConnections admits 2,274 of them, and the collector settings of conf/jvm.options: before a
   * closed connection let go of its input, this ended the server in 4 of 8 runs beside a CPU hog
   * (and in 5 of 7 of an earlier version of this case); 7 of 7 passed with it.
   */
  @Test
  void thousandsOfClientsThatPipelineAndNeverReadDoNotEndTheServer() throws Exception {
    assumeOpenFiles();
    floodAndCheck(SERIAL_128, 3_000, lines("peek 2"), 0);
  }

  /**
   * A list-tubes reply is a few bytes in and a list of every tube out, made on the engine's turn
   * before the front counts it. Before the engine counted documents on their way to the front as
   * it counts bodies, 2,200 such clients with 1,000 tubes ended a server with conf/jvm.options
   * (and one with {@code -Xmx128m}) with OutOfMemoryError within seconds.
   */
  @Test
  void thousandsOfClientsThatPipelineListTubesAndNeverReadDoNotEndTheServer() throws Exception {
    assumeOpenFiles();
    floodAndCheck(SERIAL_128, 2_200, lines("list-tubes"), 1_000);
  }

  /**
   * A put's body is held in the front's input chunks until its batch is answered, and a body still
   * arriving is read whole. Before a connection in the middle of a body stopped reading once the
   * front's input passed its limit, 2,200 such clients ended a server with {@code -Xmx128m} with
   * OutOfMemoryError.
   */
  @Test
  void thousandsOfClientsThatPipelineLargePutsAndNeverReadDoNotEndTheServer() throws Exception {
    assumeOpenFiles();
    String put = "put 0 0 60 65535\r\n" + "x".repeat(65_535) + "\r\n";
    floodAndCheck(SERIAL_128, 2_200, ("use flood\r\n" + put.repeat(4)).getBytes(StandardCharsets.US_ASCII), 0);
  }

  /** {@code line} and CR LF, 2,000 times. */
  private static byte[] lines(String line) {
    return (line + "\r\n").repeat(2_000).getBytes(StandardCharsets.US_ASCII);
  }

  private static void assumeOpenFiles() {
    long openFiles = ((com.sun.management.UnixOperatingSystemMXBean)
        java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getMaxFileDescriptorCount();
    org.junit.jupiter.api.Assumptions.assumeTrue(openFiles >= 8_192, "open-file limit " + openFiles);
  }

  /** {@code tubes} tubes are watched by the checking client first, so that list-tubes lists them. */
  private void floodAndCheck(List<String> jvmOptions, int clients, byte[] payload, int tubes) throws Exception {
    List<String> options = new ArrayList<>(jvmOptions);
    options.add("-XX:+ExitOnOutOfMemoryError");
    try (ChildJvm server = ChildJvm.start(options,
        "io.github.vertxbeanstalkd.Main",
        List.of("io.github.vertxbeanstalkd.MainVerticle", "-conf", "{\"port\":0,\"http\":{\"enabled\":false}}"), dir.resolve("server.log"))) {
      int port = Integer.parseInt(server.await(LISTENING, 60_000).group(1));
      try (TestClient c = TestClient.connect(port)) {
        c.send("put 0 0 60 65535", "x".repeat(65_535)).expect("INSERTED 1");
        for (int i = 0; i < tubes; i++) {
          c.send("watch tube-" + i).expect("WATCHING " + (i + 2));
        }
        flood(port, clients, payload);
        try {
          // The resets are handled once only this client is left. Its stats, a document, waits
          // behind the flood's documents (FrontFlow) as a peek waits behind its bodies: seconds on
          // a busy machine.
          c.setReadTimeoutMillis(30_000);
          long deadline = System.nanoTime() + 30_000_000_000L;
          while (!"1".equals(c.stats("stats").get("current-connections")) && System.nanoTime() < deadline) {
            Thread.onSpinWait();
          }
          assertEquals("1", c.stats("stats-tube default").get("current-jobs-ready"));
          c.send("delete 1").expect("DELETED");
        } catch (AssertionError e) {
          throw new AssertionError(e.getMessage() + "; the server's log ends: " + server.log(), e);
        }
      }
      assertTrue(server.isAlive(), server.log());
    }
  }

  /**
   * Every client sends {@code payload} again and again until the server takes no more or the time
   * is up; none reads. Then all close (a reset, as they leave replies unread).
   */
  private static void flood(int port, int count, byte[] payload) throws Exception {
    List<SocketChannel> clients = new ArrayList<>();
    try {
      for (int i = 0; i < count; i++) {
        SocketChannel ch = SocketChannel.open();
        // A small window: the replies pile up in the server, not in this process's kernel buffers.
        ch.setOption(StandardSocketOptions.SO_RCVBUF, 4096);
        ch.connect(new InetSocketAddress("127.0.0.1", port));
        ch.configureBlocking(false);
        clients.add(ch);
      }
      List<SocketChannel> sending = new ArrayList<>(clients);
      long end = System.nanoTime() + FLOOD_MILLIS * 1_000_000L;
      // Until the server's socket buffers are full: a pass that all clients' sockets refuse is
      // tried once more after a pause, as the server may have read a little more meanwhile.
      boolean isRetry = false;
      while (!sending.isEmpty() && System.nanoTime() < end) {
        boolean isAnyWritten = false;
        for (int i = sending.size() - 1; i >= 0; i--) {
          try {
            isAnyWritten |= sending.get(i).write(ByteBuffer.wrap(payload)) > 0;
          } catch (java.io.IOException closedByServer) {
            sending.remove(i);
          }
        }
        if (isAnyWritten) {
          isRetry = false;
        } else if (isRetry) {
          break;
        } else {
          isRetry = true;
          Thread.sleep(50); // one more try after a pause: the server has stopped reading, the thing tested
        }
      }
    } finally {
      for (SocketChannel ch : clients) {
        ch.close();
      }
    }
  }
}
