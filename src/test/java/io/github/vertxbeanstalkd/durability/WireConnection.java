package io.github.vertxbeanstalkd.durability;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A raw beanstalkd connection for the crash workload: unlike TestClient it reports a dead server
 * as an IOException (the normal end of a crash cycle) instead of failing the test.
 */
final class WireConnection implements AutoCloseable {
  private static final int MAX_LINE_BYTES = 1 << 16;
  private final Socket socket;
  private final BufferedInputStream in;
  private final BufferedOutputStream out;

  private WireConnection(Socket socket) throws IOException {
    this.socket = socket;
    this.in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
    this.out = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
  }

  static WireConnection open(int port, int readTimeoutMillis) throws IOException {
    Socket s = new Socket();
    try {
      s.setTcpNoDelay(true);
      s.setSoTimeout(readTimeoutMillis);
      s.connect(new InetSocketAddress("127.0.0.1", port), readTimeoutMillis);
      return new WireConnection(s);
    } catch (IOException e) {
      s.close();
      throw e;
    }
  }

  /** Queues a line and its CR LF; {@link #flush()} sends. */
  WireConnection line(String text) throws IOException {
    out.write(text.getBytes(StandardCharsets.ISO_8859_1));
    out.write('\r');
    out.write('\n');
    return this;
  }

  /** Queues a put command with its body. */
  WireConnection put(long pri, long delaySeconds, long ttrSeconds, byte[] body) throws IOException {
    line("put " + pri + " " + delaySeconds + " " + ttrSeconds + " " + body.length);
    out.write(body);
    out.write('\r');
    out.write('\n');
    return this;
  }

  void flush() throws IOException {
    out.flush();
  }

  /** Sends one command line and reads the reply line. */
  String call(String command) throws IOException {
    line(command).flush();
    return readLine();
  }

  String readLine() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream(64);
    int previous = -1;
    while (true) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("the server closed the connection");
      }
      if (previous == '\r' && b == '\n') {
        byte[] bytes = line.toByteArray();
        return new String(bytes, 0, bytes.length - 1, StandardCharsets.ISO_8859_1);
      }
      line.write(b);
      previous = b;
      if (line.size() > MAX_LINE_BYTES) {
        throw new IOException("no CR LF in " + MAX_LINE_BYTES + " bytes");
      }
    }
  }

  /** Reads the {@code bytes} announced by a header, then the CR LF after them. */
  byte[] readBody(int bytes) throws IOException {
    byte[] body = in.readNBytes(bytes);
    if (body.length < bytes || in.read() != '\r' || in.read() != '\n') {
      throw new EOFException("short body: " + body.length + " of " + bytes + " bytes");
    }
    return body;
  }

  /** The last number of a header such as {@code RESERVED <id> <bytes>}. */
  static int lastNumber(String header) {
    return Integer.parseInt(header.substring(header.lastIndexOf(' ') + 1));
  }

  /** Reads the YAML document that follows an {@code OK <bytes>} header, as its keys. */
  Map<String, String> readYaml(String header) throws IOException {
    String doc = new String(readBody(lastNumber(header)), StandardCharsets.ISO_8859_1);
    Map<String, String> map = new LinkedHashMap<>();
    for (String row : doc.split("\n")) {
      int colon = row.indexOf(": ");
      if (colon > 0) {
        map.put(row.substring(0, colon), row.substring(colon + 2));
      }
    }
    return map;
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing is best effort
    }
  }
}
