package io.github.vertxbeanstalkd.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.server.DeployedServerTest;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
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
  void repliesStillBeingWrittenGoOutWholeBeforeTheConnectionCloses() {
    TestClient c = connect(4096);
    String body = "b".repeat(60_000);
    c.send("put 0 0 60 " + body.length(), body).expect("INSERTED 1");
    int peeks = 200;
    c.sendRaw("peek 1\r\n".repeat(peeks));
    // 12 MB of replies: far more than the socket buffers hold while this client does not read.
    sleep(300);
    io.vertx.core.Future<Void> stopped = server.shutdown(10_000);
    for (int i = 0; i < peeks; i++) {
      c.expect("FOUND 1 " + body.length(), body);
    }
    c.expectClosed();
    await(stopped);
  }

  private static void sleep(int millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  private void assertRefused() {
    try (Socket s = new Socket("127.0.0.1", port)) {
      throw new AssertionError("a connection was accepted after the shutdown");
    } catch (ConnectException expected) {
      // Nothing listens any more.
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
