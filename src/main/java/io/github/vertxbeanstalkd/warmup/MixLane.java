package io.github.vertxbeanstalkd.warmup;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One connection of a {@link RehearsalMix} and the thread that reads its replies as they come, so
 * that a burst's writes never wait on replies nobody reads (peeks and reserves answer with bodies
 * of up to a job's size); it counts the bursts' marks answered and notes the ids INSERTED gave.
 */
final class MixLane implements AutoCloseable {
  private static final int TIMEOUT_MILLIS = 5_000;
  private static final byte[] INSERTED = "INSERTED ".getBytes(StandardCharsets.ISO_8859_1);

  final Socket socket;
  private final byte[] markReply;
  private final AtomicLong lastId;
  private final Semaphore marks = new Semaphore(0);
  private final Thread reader;
  private volatile boolean isClosed;

  /** Starts reading {@code socket}; {@code markReply} is the reply that ends a burst. */
  MixLane(Socket socket, byte[] markReply, AtomicLong lastId) {
    this.socket = socket;
    this.markReply = markReply;
    this.lastId = lastId;
    reader = new Thread(this::read, "warm-up-mix-reader");
    reader.setDaemon(true);
    reader.start();
  }

  /** Whether the burst's end was answered; false when the server closed the connection first. */
  boolean awaitMark() throws IOException {
    try {
      if (!marks.tryAcquire(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)) {
        throw new IOException("warm-up mix: no reply to a burst's end in " + TIMEOUT_MILLIS + " ms");
      }
      return !isClosed;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("warm-up mix: interrupted", e);
    }
  }

  /** Reads replies until the connection ends, counting marks and noting the ids INSERTED gave. */
  private void read() {
    byte[] scratch = new byte[16 * 1024];
    int matched = 0;
    int lineAt = 0;
    long id = 0;
    try {
      InputStream in = socket.getInputStream();
      for (int n; (n = in.read(scratch)) >= 0; ) {
        for (int i = 0; i < n; i++) {
          byte b = scratch[i];
          matched = b == markReply[matched] ? matched + 1 : (b == markReply[0] ? 1 : 0);
          if (matched == markReply.length) {
            matched = 0;
            marks.release();
          }
          if (b == '\n') {
            lineAt = 0;
            lastId.accumulateAndGet(id, Math::max);
            id = 0;
          } else if (lineAt < INSERTED.length) {
            lineAt = b == INSERTED[lineAt] ? lineAt + 1 : Integer.MAX_VALUE;
          } else if (lineAt == INSERTED.length && b >= '0' && b <= '9') {
            id = id * 10 + (b - '0');
          }
        }
      }
    } catch (IOException closed) {
      // Closed or reset: as an end of stream.
    }
    isClosed = true;
    marks.release();
  }

  @Override
  public void close() throws IOException {
    socket.close();
    try {
      reader.join(TIMEOUT_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
