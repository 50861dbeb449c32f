package io.github.vertxbeanstalkd.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.TestClient;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A RESERVED reply's body is the job's bytes when it was reserved, however long the reply waits
 * to be written: the job is deleted and its room in the store taken by new jobs, and other
 * connections reserve (with reply objects the server reuses) while a slow client's replies wait.
 */
public class ReplyBodyLifetimeTest extends DeployedServerTest {
  /** Large bodies, so that a few batches' replies are far more than loopback's socket buffers hold. */
  static final int BODY_BYTES = 60_000;
  static final int SLOW_JOBS = 300;

  @Test
  void aSlowClientReadsTheBodiesItReservedWhileOthersReuseTheirRoom() throws Exception {
    readSlowlyWhileOthersChurn(this);
  }

  static void readSlowlyWhileOthersChurn(DeployedServerTest server) throws Exception {
    TestClient setup = server.connect();
    setup.send("use slow").expect("USING slow");
    for (int i = 1; i <= SLOW_JOBS; i++) {
      setup.sendPut(0, 0, 600, body(i)).expect("INSERTED " + i);
    }

    // Reads one byte at a time from the kernel's point of view: a small window, so the server's
    // writes back up and its replies wait in the connection as objects.
    TestClient slow = server.connect(4 * 1024);
    slow.send("watch slow", "ignore default").expect("WATCHING 2", "WATCHING 1");
    AtomicReference<Throwable> writeFailure = new AtomicReference<>();
    Thread writer = new Thread(() -> {
      try {
        OutputStream out = slow.socket().getOutputStream();
        for (int i = 1; i <= SLOW_JOBS; i++) {
          // The job is deleted in the same batch it is reserved in, long before its reply is read.
          out.write(("reserve\r\ndelete " + i + "\r\n").getBytes(StandardCharsets.US_ASCII));
        }
        out.flush();
      } catch (IOException | RuntimeException e) {
        writeFailure.set(e instanceof IOException io ? new UncheckedIOException(io) : e);
      }
    }, "slow-client-writer");
    writer.setDaemon(true);
    writer.start();

    TestClient churn = server.connect();
    for (int i = 1; i <= SLOW_JOBS; i++) {
      // Between two of the slow client's replies, another connection puts a job into the room a
      // deleted one left and reserves it, with a reply object taken from the server's pool.
      String inserted = churn.sendPut(0, 0, 600, otherBody(i)).readLine();
      long id = Long.parseLong(inserted.substring("INSERTED ".length()));
      churn.send("reserve").expect("RESERVED " + id + " " + BODY_BYTES).expectBytes(otherBody(i)).expect("");
      churn.send("delete " + id).expect("DELETED");

      slow.expect("RESERVED " + i + " " + BODY_BYTES);
      assertArrayEquals(body(i), slow.readBody("RESERVED " + i + " " + BODY_BYTES), "job " + i + "'s body");
      slow.expect("DELETED");
    }
    writer.join(TestClient.READ_TIMEOUT_MILLIS);
    assertEquals(null, writeFailure.get());
    slow.send("stats-tube slow");
    assertEquals("0", slow.readYaml().get("current-jobs-ready"));
  }

  private static byte[] body(int i) {
    byte[] b = new byte[BODY_BYTES];
    new Random(i).nextBytes(b);
    return b;
  }

  private static byte[] otherBody(int i) {
    byte[] b = new byte[BODY_BYTES];
    new Random(-i).nextBytes(b);
    return b;
  }
}
