package io.github.vertxbeanstalkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A small blocking beanstalkd client that speaks raw bytes: tests send exact lines and expect
 * exact replies. Every read gives up after {@link #READ_TIMEOUT_MILLIS}, so a missing reply fails
 * the test instead of hanging it.
 */
public final class TestClient implements AutoCloseable {
  public static final int READ_TIMEOUT_MILLIS = 5_000;
  private static final int MAX_LINE_BYTES = 1 << 20;

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  private TestClient(Socket socket) throws IOException {
    this.socket = socket;
    this.in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
    this.out = socket.getOutputStream();
  }

  public static TestClient connect(int port) {
    return connect(port, 0);
  }

  /** Connects with a small receive buffer when {@code receiveBufferBytes} is positive. */
  public static TestClient connect(int port, int receiveBufferBytes) {
    try {
      Socket s = new Socket();
      if (receiveBufferBytes > 0) {
        // Set before connecting, so the TCP window is negotiated with it.
        s.setReceiveBufferSize(receiveBufferBytes);
      }
      s.setTcpNoDelay(true);
      s.setSoTimeout(READ_TIMEOUT_MILLIS);
      s.connect(new InetSocketAddress("127.0.0.1", port), READ_TIMEOUT_MILLIS);
      return new TestClient(s);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public Socket socket() {
    return socket;
  }

  /** Sends each line followed by CR LF, all in one write. */
  public TestClient send(String... lines) {
    StringBuilder b = new StringBuilder();
    for (String line : lines) {
      b.append(line).append("\r\n");
    }
    return sendRaw(b.toString());
  }

  /** Sends the text as ISO-8859-1 bytes, one char per byte, with nothing added. */
  public TestClient sendRaw(String text) {
    return sendRaw(text.getBytes(StandardCharsets.ISO_8859_1));
  }

  public TestClient sendRaw(byte[] bytes) {
    try {
      out.write(bytes);
      out.flush();
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Expects each line, CR LF terminated, exactly and in order. */
  public TestClient expect(String... lines) {
    for (String line : lines) {
      assertEquals(line, readLine());
    }
    return this;
  }

  /** Expects exactly these bytes next. */
  public TestClient expectBytes(byte[] expected) {
    byte[] got = readExactly(expected.length);
    if (!java.util.Arrays.equals(expected, got)) {
      assertEquals(escape(expected), escape(got));
    }
    return this;
  }

  /** Expects {@code OK <n>} and a YAML document of exactly {@code yaml}. */
  public TestClient expectDocument(String yaml) {
    assertEquals(yaml, readDocument());
    return this;
  }

  /** Reads {@code OK <n>}, n bytes and CR LF; returns the n bytes as text. */
  public String readDocument() {
    String header = readLine();
    if (!header.startsWith("OK ")) {
      fail("expected OK <bytes>, got " + header);
    }
    int n = Integer.parseInt(header.substring(3));
    byte[] yaml = readExactly(n);
    assertEquals("", readLine(), "a document ends with CR LF");
    return new String(yaml, StandardCharsets.ISO_8859_1);
  }

  /** Reads a stats document into its keys, in order. */
  public Map<String, String> readYaml() {
    String doc = readDocument();
    Map<String, String> map = new LinkedHashMap<>();
    for (String line : doc.substring("---\n".length()).split("\n")) {
      int colon = line.indexOf(": ");
      map.put(line.substring(0, colon), line.substring(colon + 2));
    }
    return map;
  }

  /** Sends a stats command and returns its document's keys. */
  public Map<String, String> stats(String command) {
    send(command);
    return readYaml();
  }

  /** Reads up to CR LF; the CR LF is consumed but not returned. */
  public String readLine() {
    String line = readLineOrNull();
    if (line == null) {
      fail("connection closed; nothing read");
    }
    return line;
  }


  /** The next line, or null when the connection closed cleanly before it began. */
  public String readLineOrNull() {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int previous = -1;
    while (true) {
      int b = read();
      if (b < 0) {
        if (line.size() == 0) {
          return null;
        }
        fail("connection closed in the middle of a line: " + escape(line.toByteArray()));
      }
      if (previous == '\r' && b == '\n') {
        byte[] bytes = line.toByteArray();
        return new String(bytes, 0, bytes.length - 1, StandardCharsets.ISO_8859_1);
      }
      line.write(b);
      previous = b;
      if (line.size() > MAX_LINE_BYTES) {
        fail("no CR LF in " + MAX_LINE_BYTES + " bytes");
      }
    }
  }

  public byte[] readExactly(int n) {
    byte[] buf = new byte[n];
    int filled = 0;
    try {
      while (filled < n) {
        int got = in.read(buf, filled, n - filled);
        if (got < 0) {
          fail("connection closed after " + filled + " of " + n + " bytes");
        }
        filled += got;
      }
    } catch (SocketTimeoutException e) {
      fail("no reply within " + READ_TIMEOUT_MILLIS + " ms; got " + filled + " of " + n + " bytes");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return buf;
  }

  /** Expects the server to close the connection, sending nothing more. */
  public void expectClosed() {
    int b = read();
    if (b >= 0) {
      fail("expected the connection to close, got byte " + b);
    }
  }

  /** Expects no byte at all during {@code millis}. */
  public void expectNothingFor(int millis) {
    try {
      socket.setSoTimeout(millis);
      int b = in.read();
      fail(b < 0 ? "the connection closed" : "expected silence, got byte " + b);
    } catch (SocketTimeoutException expected) {
      // silence, as wanted
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      try {
        socket.setSoTimeout(READ_TIMEOUT_MILLIS);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private int read() {
    try {
      return in.read();
    } catch (SocketTimeoutException e) {
      fail("no reply within " + READ_TIMEOUT_MILLIS + " ms");
      return -1;
    } catch (IOException e) {
      // A reset counts as closed for the tests that expect a close.
      return -1;
    }
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing is best effort
    }
  }

  /** Bytes as readable text: printable ASCII as is, the rest as \xNN. */
  public static String escape(byte[] bytes) {
    StringBuilder b = new StringBuilder();
    for (byte x : bytes) {
      int c = x & 0xff;
      if (c == '\r') {
        b.append("\\r");
      } else if (c == '\n') {
        b.append("\\n");
      } else if (c >= 0x20 && c < 0x7f) {
        b.append((char) c);
      } else {
        b.append(String.format("\\x%02x", c));
      }
    }
    return b.toString();
  }
}
