package io.github.vertxbeanstalkd.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A client that writes commands and never reads its replies must not make the server buffer
 * without bound: the server has to stop reading from it, while serving everyone else.
 */
class BackpressureTest extends DeployedServerTest {
  static final int BODY_BYTES = 60_000;
  static final int PEEKS = 200;
  static final int USES_PER_WRITE = 64;
  /** Far more than any socket buffers on loopback: a server that never stops reading takes it all. */
  static final long COMMAND_BYTES_CAP = 96L << 20;
  static final long STALL_MILLIS = 1_000;

  @Test
  void aClientThatNeverReadsStopsBeingReadFromWhileOthersAreServed() throws Exception {
    byte[] body = new byte[BODY_BYTES];
    Arrays.fill(body, (byte) 'p');
    TestClient setup = connect();
    setup.sendRaw("put 0 0 60 " + BODY_BYTES + "\r\n").sendRaw(body).sendRaw("\r\n").expect("INSERTED 1");

    TestClient flood = connect(32 * 1024);
    AtomicLong usesWritten = new AtomicLong();
    AtomicLong bytesWritten = new AtomicLong();
    Thread sender = new Thread(() -> sendUntilStalledThenSentinel(flood, usesWritten, bytesWritten), "flood");
    sender.setDaemon(true);
    sender.start();

    long stalledAt = waitForStall(bytesWritten, 20_000);
    assertTrue(stalledAt >= 0, "the sender never blocked after " + bytesWritten.get() + " bytes: the server "
        + "keeps reading from a client that does not read its replies");
    assertTrue(bytesWritten.get() < COMMAND_BYTES_CAP);

    TestClient other = connect();
    long start = System.nanoTime();
    other.send("put 0 0 60 2", "hi").expect("INSERTED 2");
    other.send("peek 1").expect("FOUND 1 " + BODY_BYTES).expectBytes(body).expect("");
    other.send("delete 2").expect("DELETED");
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertTrue(millis < 2_000, "another connection waited " + millis + " ms");
    assertEquals(stalledAt, bytesWritten.get(), "the flooding sender is still blocked");

    isStopRequested = true;
    for (int i = 0; i < PEEKS; i++) {
      flood.expect("FOUND 1 " + BODY_BYTES).expectBytes(body).expect("");
    }
    long read = 0;
    while (true) {
      String line = flood.readLine();
      if (line.equals("NOT_FOUND")) {
        break;
      }
      assertEquals("USING " + tubeName(read), line);
      read++;
    }
    sender.join(5_000);
    assertEquals(usesWritten.get(), read, "every command was answered, in order");
  }

  /** Set once the test starts reading: the sender then finishes with a sentinel command. */
  private volatile boolean isStopRequested;

  private void sendUntilStalledThenSentinel(TestClient flood, AtomicLong usesWritten, AtomicLong bytesWritten) {
    try {
      OutputStream out = flood.socket().getOutputStream();
      byte[] peeks = "peek 1\r\n".repeat(PEEKS).getBytes(StandardCharsets.US_ASCII);
      out.write(peeks);
      bytesWritten.addAndGet(peeks.length);
      while (!isStopRequested && bytesWritten.get() < COMMAND_BYTES_CAP) {
        StringBuilder chunk = new StringBuilder();
        long first = usesWritten.get();
        for (long i = first; i < first + USES_PER_WRITE; i++) {
          chunk.append("use ").append(tubeName(i)).append("\r\n");
        }
        byte[] bytes = chunk.toString().getBytes(StandardCharsets.US_ASCII);
        out.write(bytes);
        usesWritten.addAndGet(USES_PER_WRITE);
        bytesWritten.addAndGet(bytes.length);
      }
      // A sentinel whose reply differs from every other one.
      out.write("stats-tube no-such-tube\r\n".getBytes(StandardCharsets.US_ASCII));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Returns the byte count at which writing stopped making progress, or -1 if it never did. */
  private static long waitForStall(AtomicLong bytesWritten, long timeoutMillis) throws InterruptedException {
    long end = System.currentTimeMillis() + timeoutMillis;
    long last = -1;
    long unchangedSince = System.currentTimeMillis();
    while (System.currentTimeMillis() < end) {
      long now = bytesWritten.get();
      if (now != last) {
        last = now;
        unchangedSince = System.currentTimeMillis();
      } else if (System.currentTimeMillis() - unchangedSince >= STALL_MILLIS) {
        return now;
      }
      if (now >= COMMAND_BYTES_CAP) {
        return -1;
      }
      Thread.sleep(20); // samples the count: a stall is a span without progress, the thing tested
    }
    return -1;
  }

  /** A distinct 200-byte tube name per command, so the replies' order can be checked. */
  static String tubeName(long i) {
    String n = Long.toString(i);
    return "t" + "0".repeat(199 - n.length()) + n;
  }
}
