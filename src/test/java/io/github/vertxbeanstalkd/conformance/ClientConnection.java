package io.github.vertxbeanstalkd.conformance;

import io.github.vertxbeanstalkd.TestClient;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * One client of a replayed case, over a {@link TestClient}: the replay reads whole reply units
 * until a deadline, and takes a close or a silence as an outcome to report rather than a failure.
 */
final class ClientConnection implements AutoCloseable {
  /** Polling for stray bytes or a stray close waits this long on a quiet connection. */
  private static final int POLL_MILLIS = 1;

  /** A unit read from the stream; {@code ending} is null when the unit is complete. */
  record Received(byte[] bytes, String ending) {
    String describe() {
      return PayloadText.escape(bytes) + (ending == null ? "" : ending);
    }
  }

  private final TestClient client;
  private boolean isCloseReported;

  ClientConnection(int port, long replyWaitNanos) throws IOException {
    client = TestClient.open(port, millis(replyWaitNanos));
  }

  void send(byte[] payload) {
    client.sendRaw(payload);
  }

  void shutdownOutput() {
    client.shutdownOutput();
  }

  /** Waits for one whole reply unit (line plus announced body) until {@code deadlineNanos}. */
  Received nextUnit(long deadlineNanos) {
    client.setReadTimeoutMillis(millis(deadlineNanos - System.nanoTime()));
    try {
      return new Received(client.readReply(), null);
    } catch (UncheckedIOException silentOrClosed) {
      byte[] partial = client.readAvailable(POLL_MILLIS);
      return new Received(partial, client.isClosedByServer() ? reportClose() : "(no more bytes in time)");
    }
  }

  /** Waits for the server to close the stream; bytes that come first are returned instead. */
  Received awaitClose(long deadlineNanos) {
    byte[] first = client.readAvailable(millis(deadlineNanos - System.nanoTime()));
    if (client.isClosedByServer()) {
      return new Received(first, reportClose());
    }
    return new Received(first, first.length == 0 ? "(still open)" : null);
  }

  /** What arrived unasked for: bytes, or a close nobody expected; null when nothing did. */
  String unexpected() {
    byte[] extra = client.readAvailable(POLL_MILLIS);
    String close = client.isClosedByServer() && !isCloseReported ? reportClose() : "";
    return extra.length == 0 && close.isEmpty() ? null : PayloadText.escape(extra) + close;
  }

  private String reportClose() {
    isCloseReported = true;
    return CaseFile.CLOSED;
  }

  private static int millis(long nanos) {
    return (int) Math.max(1, nanos / 1_000_000);
  }

  @Override
  public void close() {
    client.close();
  }
}
