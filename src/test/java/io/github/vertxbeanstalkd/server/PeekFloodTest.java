package io.github.vertxbeanstalkd.server;

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

  @TempDir
  Path dir;

  /**
   * Each peek's reply is a copy of the body, made on the engine's turn before the front counts it.
   * Before the engine waited for its front, the 16 clients {@code -Xmx64m} admits (the rest are
   * closed at once) ended the server within seconds, and 64 did so with {@code -Xmx128m}.
   */
  @Test
  void clientsThatPeekALargeJobAndNeverReadDoNotEndTheServer() throws Exception {
    floodAndCheck(List.of("-Xmx64m"), 256, "peek 1");
  }

  private void floodAndCheck(List<String> jvmOptions, int clients, String line) throws Exception {
    List<String> options = new ArrayList<>(jvmOptions);
    options.add("-XX:+ExitOnOutOfMemoryError");
    try (ChildJvm server = ChildJvm.start(options,
        "io.github.vertxbeanstalkd.Main",
        List.of("io.github.vertxbeanstalkd.MainVerticle", "-conf", "{\"port\":0,\"http\":{\"enabled\":false},"
            + "\"tcp\":{\"warmUp\":false}}"), dir.resolve("server.log"))) {
      int port = Integer.parseInt(server.await(LISTENING, 60_000).group(1));
      try (TestClient c = TestClient.connect(port)) {
        c.send("put 0 0 60 65535", "x".repeat(65_535)).expect("INSERTED 1");
        flood(port, clients, line);
        try {
          assertEquals("1", c.stats("stats").get("current-jobs-ready"));
          c.send("delete 1").expect("DELETED");
        } catch (AssertionError e) {
          throw new AssertionError(e.getMessage() + "; the server's log ends: " + server.log(), e);
        }
      }
      assertTrue(server.isAlive(), server.log());
    }
  }

  /** Every client sends peeks until the server stops reading it or the time is up; none reads. */
  private static void flood(int port, int count, String line) throws Exception {
    byte[] peeks = (line + "\r\n").repeat(2_000).getBytes(StandardCharsets.US_ASCII);
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
      while (!sending.isEmpty() && System.nanoTime() < end) {
        for (int i = sending.size() - 1; i >= 0; i--) {
          try {
            if (sending.get(i).write(ByteBuffer.wrap(peeks)) == 0) {
              sending.remove(i);
            }
          } catch (java.io.IOException closedByServer) {
            sending.remove(i);
          }
        }
      }
    } finally {
      for (SocketChannel ch : clients) {
        ch.close();
      }
    }
  }
}
