package io.github.vertxbeanstalkd.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.tcp.DeployedServerTest;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import org.junit.jupiter.api.Test;

/** BeanstalkServer.shutdown, what SIGTERM runs: stop accepting, finish what is in flight, close. */
class GracefulShutdownTest extends DeployedServerTest {

  @Test
  void idleAndWaitingConnectionsCloseAtOnceAndNoNewOnesAreAccepted() {
    TestClient idle = connect();
    idle.send("put 0 0 60 1", "x").expect("INSERTED 1");
    TestClient waiting = connect();
    waiting.send("watch other").expect("WATCHING 2");
    waiting.send("ignore default").expect("WATCHING 1");
    waiting.sendRaw("reserve\r\n");
    waiting.expectNothingFor(100);
    long started = System.nanoTime();
    await(server.shutdown(5_000));
    long tookMillis = (System.nanoTime() - started) / 1_000_000;
    assertTrue(tookMillis < 2_000, "shutdown waited " + tookMillis + " ms for connections with nothing in flight");
    idle.expectClosed();
    waiting.expectClosed();
    assertRefused();
  }

  @Test
  void repliesStillBeingWrittenGoOutWholeBeforeTheConnectionCloses() throws InterruptedException {
    TestClient c = connect(4096);
    String body = "b".repeat(60_000);
    c.send("put 0 0 60 " + body.length(), body).expect("INSERTED 1");
    int peeks = 200;
    c.sendRaw("peek 1\r\n".repeat(peeks));
    // A batch of peeks (64 at 64 KiB jobs) is megabytes of replies: more than the socket buffers
    // hold while this client does not read, so they are still being written at the shutdown.
    TestClient watcher = connect();
    assertTrue(eventually(5_000, () -> Long.parseLong(watcher.stats("stats").get("cmd-peek")) >= 1));
    io.vertx.core.Future<Void> stopped = server.shutdown(10_000);
    int answered = 0;
    String line;
    while ((line = c.readLineOrNull()) != null) {
      assertEquals("FOUND 1 " + body.length(), line);
      assertEquals(body + "\r\n",
          new String(c.readExactly(body.length() + 2), java.nio.charset.StandardCharsets.ISO_8859_1));
      answered++;
    }
    assertTrue(answered >= 1 && answered < peeks, "answered " + answered + ": the batch in flight, whole, and no more");
    await(stopped);
  }


  private void assertRefused() {
    UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> TestClient.connect(port).close(),
        "a connection was accepted after the shutdown");
    assertInstanceOf(ConnectException.class, e.getCause(), "nothing listens any more");
  }
}
