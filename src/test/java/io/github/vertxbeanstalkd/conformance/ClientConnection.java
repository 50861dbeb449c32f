package io.github.vertxbeanstalkd.conformance;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Arrays;

/**
 * One raw client socket of a replayed case. A daemon thread collects every byte the server
 * sends, so the replay can check both what arrived and that nothing else did.
 */
final class ClientConnection implements AutoCloseable {
  private static final int CONNECT_TIMEOUT_MILLIS = 2_000;

  /** A unit read from the stream; {@code ending} is null when the unit is complete. */
  record Received(byte[] bytes, String ending) {
    String describe() {
      return PayloadText.escape(bytes) + (ending == null ? "" : ending);
    }
  }

  private final Socket socket;
  private final Thread reader;
  private byte[] buffer = new byte[4096];
  private int start;
  private int end;
  private boolean isEof;
  private boolean isEofReported;
  private volatile boolean isClosedByUs;

  ClientConnection(int port, String threadName) throws IOException {
    socket = new Socket();
    socket.setTcpNoDelay(true);
    socket.connect(new InetSocketAddress("127.0.0.1", port), CONNECT_TIMEOUT_MILLIS);
    reader = new Thread(this::readLoop, threadName);
    reader.setDaemon(true);
    reader.start();
  }

  private void readLoop() {
    byte[] chunk = new byte[65536];
    try {
      InputStream in = socket.getInputStream();
      int n;
      while ((n = in.read(chunk)) > 0) {
        append(chunk, n);
      }
    } catch (IOException resetOrClosedByUs) {
      // A reset by the server counts as a close, as in the recorder.
    }
    synchronized (this) {
      isEof = true;
      notifyAll();
    }
  }

  private synchronized void append(byte[] chunk, int n) {
    if (end + n > buffer.length) {
      int live = end - start;
      byte[] bigger = live + n > buffer.length ? new byte[Math.max(buffer.length * 2, live + n)] : buffer;
      System.arraycopy(buffer, start, bigger, 0, live);
      buffer = bigger;
      start = 0;
      end = live;
    }
    System.arraycopy(chunk, 0, buffer, end, n);
    end += n;
    notifyAll();
  }

  void send(byte[] payload) throws IOException {
    socket.getOutputStream().write(payload);
    socket.getOutputStream().flush();
  }

  void shutdownOutput() throws IOException {
    socket.shutdownOutput();
  }

  /** Waits for one whole reply unit (line plus announced body) until {@code deadlineNanos}. */
  synchronized Received nextUnit(long deadlineNanos) throws InterruptedException {
    while (true) {
      int crlf = ReplyUnits.indexOfCrlf(buffer, start, end);
      if (crlf >= 0) {
        int lineEnd = crlf - start;
        long unitEnd = lineEnd + 2L;
        long body = ReplyUnits.bodyLength(ReplyUnits.text(buffer, start, start + lineEnd + 2));
        if (body >= 0) {
          unitEnd += body;
        }
        if (unitEnd <= end - start) {
          return new Received(take((int) unitEnd), null);
        }
      }
      if (isEof) {
        isEofReported = true;
        return new Received(take(end - start), CaseFile.CLOSED);
      }
      long waitNanos = deadlineNanos - System.nanoTime();
      if (waitNanos <= 0) {
        return new Received(take(end - start), "(no more bytes in time)");
      }
      wait(Math.max(1, waitNanos / 1_000_000));
    }
  }

  /** Waits for the server to close the stream; any byte that comes first is returned instead. */
  synchronized Received awaitClose(long deadlineNanos) throws InterruptedException {
    while (start == end && !isEof) {
      long waitNanos = deadlineNanos - System.nanoTime();
      if (waitNanos <= 0) {
        return new Received(new byte[0], "(still open)");
      }
      wait(Math.max(1, waitNanos / 1_000_000));
    }
    if (start != end) {
      return nextUnit(deadlineNanos);
    }
    isEofReported = true;
    return new Received(new byte[0], CaseFile.CLOSED);
  }

  /** What arrived unasked for: bytes, or a close nobody expected; null when nothing did. */
  synchronized String unexpected() {
    if (start != end) {
      return PayloadText.escape(buffer, start, end) + (isEof && !isEofReported ? CaseFile.CLOSED : "");
    }
    return isEof && !isEofReported && !isClosedByUs ? CaseFile.CLOSED : null;
  }

  private byte[] take(int n) {
    byte[] unit = Arrays.copyOfRange(buffer, start, start + n);
    start += n;
    return unit;
  }

  @Override
  public void close() {
    isClosedByUs = true;
    try {
      socket.close();
    } catch (IOException ignored) {
      // Closing is best effort; the case is over.
    }
  }
}
