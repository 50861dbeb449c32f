package io.github.vertxbeanstalkd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import org.opentest4j.AssertionFailedError;

/**
 * The tests' one raw-socket beanstalkd client: it sends exact bytes and reads replies as lines,
 * bodies, documents and whole replies. A read waits at most the read timeout for each next byte,
 * so a missing reply ends the read instead of hanging it. How a close, a silence or broken
 * framing surfaces is chosen when connecting: {@link #connect(int)} fails the test, while
 * {@link #open(int, int)} throws {@link UncheckedIOException} (its cause an
 * {@link EOFException} for a close or reset, a {@link SocketTimeoutException} for a silence) for
 * harnesses that record a dead server as data. The {@code expect} methods assert either way.
 */
public final class TestClient implements AutoCloseable {
  public static final int READ_TIMEOUT_MILLIS = 5_000;
  private static final int MAX_LINE_BYTES = 1 << 20;

  private enum FailureStyle { ASSERTION, UNCHECKED_IO }

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private final FailureStyle failureStyle;
  private int readTimeoutMillis;
  /** Received and not yet read: {@code buffer[start, end)}. A failed read takes nothing from it. */
  private byte[] buffer = new byte[64 * 1024];
  private int start;
  private int end;
  private boolean isClosedByServer;

  private TestClient(Socket socket, FailureStyle failureStyle, int readTimeoutMillis) throws IOException {
    this.socket = socket;
    this.in = socket.getInputStream();
    this.out = socket.getOutputStream();
    this.failureStyle = failureStyle;
    this.readTimeoutMillis = readTimeoutMillis;
  }

  public static TestClient connect(int port) {
    return connect(port, 0);
  }

  /** Connects with a small receive buffer when {@code receiveBufferBytes} is positive. */
  public static TestClient connect(int port, int receiveBufferBytes) {
    try {
      return new TestClient(socket(port, receiveBufferBytes, READ_TIMEOUT_MILLIS), FailureStyle.ASSERTION,
          READ_TIMEOUT_MILLIS);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Connects for a harness: a failed connect throws IOException, and every later close, reset,
   * silence of {@code readTimeoutMillis} or broken framing throws UncheckedIOException.
   */
  public static TestClient open(int port, int readTimeoutMillis) throws IOException {
    return new TestClient(socket(port, 0, readTimeoutMillis), FailureStyle.UNCHECKED_IO, readTimeoutMillis);
  }

  /** A client, failing the test as {@link #connect(int)} does, over a socket already connected: a TLS socket. */
  public static TestClient over(Socket socket) {
    try {
      return new TestClient(socket, FailureStyle.ASSERTION, READ_TIMEOUT_MILLIS);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Socket socket(int port, int receiveBufferBytes, int connectTimeoutMillis) throws IOException {
    Socket s = new Socket();
    try {
      if (receiveBufferBytes > 0) {
        // Set before connecting, so the TCP window is negotiated with it.
        s.setReceiveBufferSize(receiveBufferBytes);
      }
      s.setTcpNoDelay(true);
      s.connect(new InetSocketAddress("127.0.0.1", port), connectTimeoutMillis);
      return s;
    } catch (IOException e) {
      s.close();
      throw e;
    }
  }

  public Socket socket() {
    return socket;
  }

  /** How long a read waits for each next byte before it gives up. */
  public TestClient setReadTimeoutMillis(int millis) {
    readTimeoutMillis = Math.max(1, millis);
    return this;
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

  /** Sends a put command and its body in one write; the reply is left to read. */
  public TestClient sendPut(long pri, long delaySeconds, long ttrSeconds, byte[] body) {
    byte[] line = ("put " + pri + " " + delaySeconds + " " + ttrSeconds + " " + body.length + "\r\n")
        .getBytes(StandardCharsets.ISO_8859_1);
    byte[] all = Arrays.copyOf(line, line.length + body.length + 2);
    System.arraycopy(body, 0, all, line.length, body.length);
    all[all.length - 2] = '\r';
    all[all.length - 1] = '\n';
    return sendRaw(all);
  }

  /** Sends one command line and returns the reply line. */
  public String call(String command) {
    return send(command).readLine();
  }

  /** Half-closes: the server reads an end of stream, and can still reply. */
  public void shutdownOutput() {
    try {
      socket.shutdownOutput();
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
    if (!Arrays.equals(expected, got)) {
      assertEquals(ReplyText.escape(expected), ReplyText.escape(got));
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
    return readDocument(readLine());
  }

  /** Reads the document announced by {@code header}, which must be {@code OK <n>}. */
  public String readDocument(String header) {
    if (!header.startsWith("OK ")) {
      throw failure("expected OK <bytes>, got " + header, false);
    }
    return new String(readBody(header), StandardCharsets.ISO_8859_1);
  }

  /** Reads a stats document into its keys, in order. */
  public Map<String, String> readYaml() {
    return yaml(readDocument());
  }

  /** Reads the stats document announced by {@code header} into its keys, in order. */
  public Map<String, String> readYaml(String header) {
    return yaml(readDocument(header));
  }

  /** Sends a stats command and returns its document's keys. */
  public Map<String, String> stats(String command) {
    send(command);
    return readYaml();
  }

  private Map<String, String> yaml(String doc) {
    try {
      return ReplyText.yaml(doc);
    } catch (IllegalArgumentException notYaml) {
      throw failure(notYaml.getMessage(), false);
    }
  }


  /** Reads up to CR LF; the CR LF is consumed but not returned. */
  public String readLine() {
    int length = awaitLine();
    String line = new String(buffer, start, length, StandardCharsets.ISO_8859_1);
    start += length + 2;
    return line;
  }

  /** The next line, or null when the connection closed cleanly before it began. */
  public String readLineOrNull() {
    if (start == end && receive(readTimeoutMillis) == 0) {
      throw failure("no reply within " + readTimeoutMillis + " ms", true);
    }
    return start == end && isClosedByServer ? null : readLine();
  }

  /** The {@code <bytes>} a FOUND, RESERVED or OK header announces, then its CR LF. */
  public byte[] readBody(String header) {
    int bytes = Integer.parseInt(header.substring(header.lastIndexOf(' ') + 1));
    awaitBytes(bytes + 2);
    if (buffer[start + bytes] != '\r' || buffer[start + bytes + 1] != '\n') {
      throw failure("a body of " + bytes + " bytes ends with CR LF, got "
          + ReplyText.escape(Arrays.copyOfRange(buffer, start, start + bytes + 2)), false);
    }
    byte[] body = Arrays.copyOfRange(buffer, start, start + bytes);
    start += bytes + 2;
    return body;
  }

  /** One whole reply: its line and CR LF, then the body and CR LF its header announces, if any. */
  public byte[] readReply() {
    int length = awaitLine();
    long body = ReplyText.announcedBodyBytes(new String(buffer, start, length, StandardCharsets.ISO_8859_1));
    long total = length + 2L + (body < 0 ? 0 : body + 2);
    if (total > Integer.MAX_VALUE - 16) {
      throw failure("a reply of " + total + " bytes", false);
    }
    return readExactly((int) total);
  }

  public byte[] readExactly(int n) {
    awaitBytes(n);
    byte[] bytes = Arrays.copyOfRange(buffer, start, start + n);
    start += n;
    return bytes;
  }

  /**
   * Everything received and not yet read, waiting up to {@code waitMillis} for a first byte or a
   * close when there is none; never fails. {@link #isClosedByServer()} tells whether a close came.
   */
  public byte[] readAvailable(int waitMillis) {
    if (start == end) {
      receive(waitMillis);
    }
    try {
      while (!isClosedByServer && in.available() > 0 && receive(1) > 0) {
        // Take what the socket already holds too.
      }
    } catch (IOException e) {
      isClosedByServer = true;
    }
    return readExactly(end - start);
  }

  /** True once a read met the end of the stream or a reset. */
  public boolean isClosedByServer() {
    return isClosedByServer;
  }

  /** Expects the server to close the connection, sending nothing more. */
  public void expectClosed() {
    if (start == end && receive(readTimeoutMillis) == 0) {
      throw failure("no close within " + readTimeoutMillis + " ms", true);
    }
    if (start != end) {
      throw failure("expected the connection to close, got " + ReplyText.escape(readAvailable(1)), false);
    }
  }

  /** Expects no byte at all during {@code millis}. */
  public void expectNothingFor(int millis) {
    if (start == end && receive(millis) == 0) {
      return;
    }
    throw failure(start == end ? "the connection closed"
        : "expected silence, got " + ReplyText.escape(readAvailable(1)), false);
  }

  /** Waits for a whole line to be buffered; returns its length without the CR LF. */
  private int awaitLine() {
    int scanned = 0;
    while (true) {
      for (int i = start + Math.max(0, scanned - 1); i + 1 < end; i++) {
        if (buffer[i] == '\r' && buffer[i + 1] == '\n') {
          return i - start;
        }
      }
      scanned = end - start;
      if (scanned > MAX_LINE_BYTES) {
        throw failure("no CR LF in " + MAX_LINE_BYTES + " bytes", false);
      }
      receiveOrFail();
    }
  }

  private void awaitBytes(int n) {
    while (end - start < n) {
      receiveOrFail();
    }
  }

  private void receiveOrFail() {
    int got = receive(readTimeoutMillis);
    if (got == 0) {
      throw failure("no reply within " + readTimeoutMillis + " ms", true);
    }
    if (got < 0) {
      throw failure("connection closed", false);
    }
  }

  /** One read into the buffer: the bytes it added, 0 when {@code waitMillis} passed, -1 at the end. */
  private int receive(int waitMillis) {
    if (isClosedByServer) {
      return -1;
    }
    makeRoom();
    try {
      socket.setSoTimeout(Math.max(1, waitMillis));
      int n = in.read(buffer, end, buffer.length - end);
      if (n < 0) {
        isClosedByServer = true;
        return -1;
      }
      end += n;
      return n;
    } catch (SocketTimeoutException e) {
      return 0;
    } catch (IOException e) {
      // A reset counts as a close, for the tests that expect one.
      isClosedByServer = true;
      return -1;
    }
  }

  private void makeRoom() {
    if (end < buffer.length) {
      return;
    }
    int live = end - start;
    byte[] target = live * 2 > buffer.length ? new byte[buffer.length * 2] : buffer;
    System.arraycopy(buffer, start, target, 0, live);
    buffer = target;
    start = 0;
    end = live;
  }

  /**
   * A failure in this client's style: an assertion is thrown here, an UncheckedIOException is
   * returned for the caller to throw. {@code isSilence} tells a timeout from a close or bad bytes.
   */
  private RuntimeException failure(String what, boolean isSilence) {
    String message = start == end ? what
        : what + "; read so far: " + ReplyText.escape(Arrays.copyOfRange(buffer, start, Math.min(end, start + 512)));
    if (failureStyle == FailureStyle.ASSERTION) {
      throw new AssertionFailedError(message);
    }
    IOException cause = isSilence ? new SocketTimeoutException(message)
        : isClosedByServer ? new EOFException(message) : new IOException(message);
    return new UncheckedIOException(message, cause);
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
