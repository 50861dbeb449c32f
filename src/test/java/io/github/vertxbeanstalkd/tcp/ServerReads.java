package io.github.vertxbeanstalkd.tcp;

import io.github.vertxbeanstalkd.TestClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.opentest4j.AssertionFailedError;

/**
 * Waits until the server has read every byte a test client has written, by watching both ends'
 * kernel socket queues in Linux's {@code /proc/net/tcp}, so that the next write reaches the server
 * as a read of its own instead of being coalesced with this one.
 */
final class ServerReads {
  private static final List<Path> TABLES = List.of(Path.of("/proc/net/tcp6"), Path.of("/proc/net/tcp"));
  private static final String ESTABLISHED = "01";
  private static final long TIMEOUT_NANOS = 5_000_000_000L;

  private ServerReads() {}

  /** The kernel shows the socket queues (Linux); elsewhere the tests that need it are skipped. */
  static boolean canBeObserved() {
    return TABLES.stream().anyMatch(Files::isReadable);
  }

  /** Writes {@code bytes} one at a time, each read by the server before the next is written. */
  static void sendOneBytePerRead(TestClient client, byte[] bytes) {
    for (byte b : bytes) {
      client.sendRaw(new byte[] {b});
      awaitAllRead(client.socket());
    }
  }

  /**
   * Returns once the server has taken from its socket all that {@code client} wrote. The client's
   * send queue must be empty first (the server's kernel acknowledged every byte; until then a
   * segment may wait where the receive queue does not count it), and then the server's receive
   * queue, sampled later, must be empty too (the server read them). The kernel prints each row as
   * it samples it, so one look settles both when it lists the client's row first.
   */
  static void awaitAllRead(Socket client) {
    long deadline = System.nanoTime() + TIMEOUT_NANOS;
    boolean isAcknowledged = false;
    while (true) {
      Look look = look(client.getLocalPort(), client.getPort());
      boolean isRead = look.serverUnread() == 0;
      if (isRead && (isAcknowledged || (look.clientUnacknowledged() == 0 && look.isClientListedFirst()))) {
        return;
      }
      isAcknowledged |= look.clientUnacknowledged() == 0;
      if (System.nanoTime() > deadline) {
        String what = isAcknowledged ? "the server has not read" : "the server's kernel has not acknowledged";
        throw new AssertionFailedError(what + " what the client sent within " + TIMEOUT_NANOS / 1_000_000 + " ms");
      }
      // The loop ends on what the kernel shows, not on time; each look takes the kernel a while.
      Thread.yield();
    }
  }

  /** Both ends of one connection in one reading of the table, in the order the kernel listed them. */
  private record Look(long clientUnacknowledged, long serverUnread, boolean isClientListedFirst) {}

  private static Look look(int clientPort, int serverPort) {
    String clientEnd = String.format(":%04X", clientPort);
    String serverEnd = String.format(":%04X", serverPort);
    try {
      for (Path table : TABLES) {
        if (!Files.isReadable(table)) {
          continue; // no IPv6 in this kernel
        }
        List<String> rows = Files.readAllLines(table);
        int clientRow = -1;
        int serverRow = -1;
        long clientUnacknowledged = 0;
        long serverUnread = 0;
        for (int i = 0; i < rows.size(); i++) {
          // sl local_address rem_address st tx_queue:rx_queue ..., the queues in hex.
          String[] f = rows.get(i).trim().split("\\s+");
          if (f.length <= 4 || !f[3].equals(ESTABLISHED)) {
            continue;
          }
          String[] queues = f[4].split(":");
          if (f[1].endsWith(clientEnd) && f[2].endsWith(serverEnd)) {
            clientRow = i;
            clientUnacknowledged = Long.parseLong(queues[0], 16);
          } else if (f[1].endsWith(serverEnd) && f[2].endsWith(clientEnd)) {
            serverRow = i;
            serverUnread = Long.parseLong(queues[1], 16);
          }
        }
        if (clientRow >= 0 && serverRow >= 0) {
          return new Look(clientUnacknowledged, serverUnread, clientRow < serverRow);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new AssertionFailedError("no established connection " + clientPort + " -> " + serverPort + " in " + TABLES);
  }
}
