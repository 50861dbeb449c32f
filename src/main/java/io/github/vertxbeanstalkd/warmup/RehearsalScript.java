package io.github.vertxbeanstalkd.warmup;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * The commands of a {@link Rehearsal}, sent the way clients send them (one at a time, each reply
 * read before the next command) over two blocking connections: every command word, the error
 * replies, a body larger than one read, and a reserve parked until another connection's put.
 * Blocking I/O, so it runs on a worker thread, never on the event loop.
 */
final class RehearsalScript implements AutoCloseable {
  private static final int TIMEOUT_MILLIS = 5_000;
  private static final String TUBE = "rehearsal";

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private int commands;

  private RehearsalScript(String host, int port, java.util.Set<Integer> ownPorts) throws IOException {
    socket = openSocket(host, port, ownPorts);
    socket.setSoTimeout(TIMEOUT_MILLIS);
    in = new BufferedInputStream(socket.getInputStream());
    out = socket.getOutputStream();
  }

  /**
   * A connection to the rehearsal's server at {@code host:port}, its local port put into {@code
   * ownPorts} before it connects; no read timeout, Nagle off.
   */
  static Socket openSocket(String host, int port, java.util.Set<Integer> ownPorts) throws IOException {
    Socket socket = new Socket();
    // Closed by this side, so its port stays in TIME_WAIT for a minute: SO_REUSEADDR lets the real
    // listener bind that port all the same (a configured port in the ephemeral range).
    socket.setReuseAddress(true);
    // Bound first, so that the rehearsal's listener knows this connection for its own.
    socket.bind(new InetSocketAddress(host, 0));
    ownPorts.add(socket.getLocalPort());
    socket.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
    socket.setTcpNoDelay(true);
    return socket;
  }

  /**
   * Plays {@code rounds} rounds against the server at {@code host:port}; returns how many commands
   * were answered. The local port of every connection it opens goes into {@code ownPorts} first.
   *
   * @throws IllegalStateException when a reply is not the one the script expects
   */
  static int play(String host, int port, int rounds, java.util.Set<Integer> ownPorts) throws IOException {
    int total = 0;
    for (int i = 0; i < rounds; i++) {
      try (RehearsalScript a = new RehearsalScript(host, port, ownPorts);
          RehearsalScript b = new RehearsalScript(host, port, ownPorts)) {
        round(a, b);
        total += a.commands + b.commands;
      }
    }
    return total;
  }

  private static void round(RehearsalScript a, RehearsalScript b) throws IOException {
    a.expect("use " + TUBE, "USING");
    a.expect("watch " + TUBE, "WATCHING");
    a.expect("ignore default", "WATCHING");
    long ready = a.put("0 0 60", "hello");
    long large = a.put("10 0 60", "x".repeat(10_000));
    long delayed = a.put("0 100 60", "");
    a.expect("peek-ready", "FOUND");
    a.expect("peek-delayed", "FOUND");
    a.expect("peek-buried", "NOT_FOUND");
    a.expect("peek " + large, "FOUND");
    a.expect("reserve-with-timeout 0", "RESERVED " + ready);
    a.expect("touch " + ready, "TOUCHED");
    a.expect("release " + ready + " 5 0", "RELEASED");
    a.expect("reserve", "RESERVED " + ready);
    a.expect("bury " + ready + " 0", "BURIED");
    a.expect("peek-buried", "FOUND " + ready);
    a.expect("kick 1", "KICKED 1");
    a.expect("kick-job " + delayed, "KICKED");
    a.expect("reserve-job " + large, "RESERVED " + large);
    a.expect("delete " + large, "DELETED");
    a.expect("stats-job " + ready, "OK");
    a.expect("stats-tube " + TUBE, "OK");
    a.expect("stats", "OK");
    a.expect("list-tubes", "OK");
    a.expect("list-tube-used", "USING");
    a.expect("list-tubes-watched", "OK");
    a.expect("pause-tube " + TUBE + " 0", "PAUSED");
    a.expect("delete " + ready, "DELETED");
    a.expect("delete " + delayed, "DELETED");
    a.expect("frobnicate", "UNKNOWN_COMMAND");
    a.expect("delete x", "BAD_FORMAT");
    a.expect("peek 0", "NOT_FOUND");
    // A reserve that waits, woken by another connection's put.
    b.expect("watch " + TUBE, "WATCHING");
    b.send("reserve-with-timeout 1");
    long woken = a.put("0 0 60", "abc");
    b.expectReply("RESERVED " + woken);
    b.expect("delete " + woken, "DELETED");
    a.send("quit");
    b.send("quit");
  }

  private long put(String header, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.ISO_8859_1);
    String reply = expect("put " + header + " " + bytes.length + "\r\n" + body, "INSERTED");
    return Long.parseLong(reply.substring("INSERTED ".length()));
  }

  private String expect(String command, String replyPrefix) throws IOException {
    send(command);
    return expectReply(replyPrefix);
  }

  private void send(String command) throws IOException {
    out.write((command + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
    commands++;
  }

  /** Reads one reply, with the body that RESERVED, FOUND and OK announce, and checks its start. */
  private String expectReply(String replyPrefix) throws IOException {
    String line = readLine();
    if (!line.startsWith(replyPrefix)) {
      throw new IllegalStateException("warm-up: expected " + replyPrefix + ", got " + line);
    }
    if (line.startsWith("RESERVED ") || line.startsWith("FOUND ") || line.startsWith("OK ")) {
      long bodyBytes = Long.parseLong(line.substring(line.lastIndexOf(' ') + 1)) + 2;
      in.skipNBytes(bodyBytes);
    }
    return line;
  }

  private String readLine() throws IOException {
    StringBuilder line = new StringBuilder();
    for (int c; (c = in.read()) != '\n'; ) {
      if (c < 0) {
        throw new IOException("warm-up: the connection closed after '" + line + "'");
      }
      line.append((char) c);
    }
    line.setLength(Math.max(0, line.length() - 1));
    return line.toString();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
