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
    floodAndCheck(List.of("-Xmx64m"), "", 256, "peek 1", false);
  }

  /**
   * A client's reset makes Netty read whatever its socket still buffers, though reading was
   * stopped: about 100 KiB a client here. The clients close while the server is stopped (SIGSTOP),
   * so that it takes the resets together, as a busy server does. A closed connection stays
   * reachable until its channel is deregistered, after the resets read with it: before it let go of
   * its input at once, this ended the server in 3 of 7 runs (CommandReaderChunksTest checks the
   * letting go itself).
   */
  @Test
  void clientsThatPipelineWithoutReadingAndThenResetDoNotEndTheServer() throws Exception {
    floodAndCheck(List.of("-Xmx48m"), ",\"maxConnections\":1000", 600, "peek 2", true);
  }

  /**
   * A small reply each, but each client's input and commands are held while it does not read, and
   * its close makes the server read all its socket buffered. With {@code -Xmx128m}, whose default
   * maxConnections admits 2,274 of them, and the collector settings of conf/jvm.options: before a
   * closed connection let go of its input, this ended the server in 2 of 4 runs beside a CPU hog
   * (and in 5 of 7 of an earlier version of this case); 4 of 4 passed with it.
   */
  @Test
  void thousandsOfClientsThatPipelineAndNeverReadDoNotEndTheServer() throws Exception {
    long openFiles = ((com.sun.management.UnixOperatingSystemMXBean)
        java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getMaxFileDescriptorCount();
    org.junit.jupiter.api.Assumptions.assumeTrue(openFiles >= 8_192, "open-file limit " + openFiles);
    floodAndCheck(List.of("-Xmx128m", "-XX:+UseSerialGC", "-Xmn32m", "-XX:MaxTenuringThreshold=1"), "", 3_000,
        "peek 2", false);
  }

  private void floodAndCheck(List<String> jvmOptions, String config, int clients, String line,
      boolean closeWhileStopped) throws Exception {
    List<String> options = new ArrayList<>(jvmOptions);
    options.add("-XX:+ExitOnOutOfMemoryError");
    try (ChildJvm server = ChildJvm.start(options,
        "io.github.vertxbeanstalkd.Main",
        List.of("io.github.vertxbeanstalkd.MainVerticle", "-conf", "{\"port\":0,\"http\":{\"enabled\":false},"
            + "\"tcp\":{\"warmUp\":false}" + config + "}"), dir.resolve("server.log"))) {
      int port = Integer.parseInt(server.await(LISTENING, 60_000).group(1));
      try (TestClient c = TestClient.connect(port)) {
        c.send("put 0 0 60 65535", "x".repeat(65_535)).expect("INSERTED 1");
        flood(port, clients, line, closeWhileStopped ? server.pid() : 0);
        try {
          // The resets are handled once only this client is left.
          long deadline = System.nanoTime() + 30_000_000_000L;
          while (!"1".equals(c.stats("stats").get("current-connections")) && System.nanoTime() < deadline) {
            Thread.onSpinWait();
          }
          assertEquals("1", c.stats("stats").get("current-jobs-ready"));
          c.send("delete 1").expect("DELETED");
        } catch (AssertionError e) {
          throw new AssertionError(e.getMessage() + "; the server's log ends: " + server.log(), e);
        }
      }
      assertTrue(server.isAlive(), server.log());
    }
  }

  /**
   * Every client sends peeks until the time is up; none reads. Then
   * all close, with the process {@code stopPid} stopped meanwhile unless it is 0.
   */
  private static void flood(int port, int count, String line, long stopPid) throws Exception {
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
      // A blocked client tries again, as the server may read a little more now and then: the
      // server's socket buffers end up full.
      while (!sending.isEmpty() && System.nanoTime() < end) {
        boolean isAnyWritten = false;
        for (int i = sending.size() - 1; i >= 0; i--) {
          try {
            isAnyWritten |= sending.get(i).write(ByteBuffer.wrap(peeks)) > 0;
          } catch (java.io.IOException closedByServer) {
            sending.remove(i);
          }
        }
        if (!isAnyWritten) {
          Thread.sleep(50);
        }
      }
    } finally {
      signal(stopPid, "STOP");
      try {
        for (SocketChannel ch : clients) {
          ch.close();
        }
      } finally {
        signal(stopPid, "CONT");
      }
    }
  }

  private static void signal(long pid, String signal) throws Exception {
    if (pid != 0 && new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start().waitFor() != 0) {
      throw new IllegalStateException("kill -" + signal + " " + pid + " failed");
    }
  }
}
