package io.github.vertxbeanstalkd.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.github.vertxbeanstalkd.Await;
import io.github.vertxbeanstalkd.bus.EngineAddress;
import io.github.vertxbeanstalkd.bus.LocalCodec;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.engine.EngineOptions;
import io.github.vertxbeanstalkd.engine.QueueEngineVerticle;
import io.github.vertxbeanstalkd.engine.ServerInfo;
import io.github.vertxbeanstalkd.persistence.BinlogConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A connection closed for the replies it held is reset, not closed after its queued writes: a
 * client that does not read never takes them, and Vert.x's close waited for them (1,581 such
 * connections held 100 MiB of direct memory after they were "closed", and the server ran out).
 */
@ExtendWith(VertxExtension.class)
class ClosedForHoldingTest {
  @Test
  void aClientClosedForWhatItHeldIsResetAtOnce(Vertx vertx) throws Exception {
    LocalCodec.registerAll(vertx);
    EngineAddress address = EngineAddress.unique();
    ServerConfig config = new ServerConfig("127.0.0.1", 0, ServerConfig.DEFAULT_MAX_JOB_SIZE);
    await(vertx.deployVerticle(new QueueEngineVerticle(address,
        EngineOptions.of(ServerInfo.gather(), config.maxJobSizeBytes(), BinlogConfig.inMemory()))));
    TcpServerVerticle tcp = new TcpServerVerticle(config, address).limitHeldReplies(256 * 1024);
    await(vertx.deployVerticle(tcp));
    try (Socket client = new Socket()) {
      client.setReceiveBufferSize(4096);
      client.connect(new java.net.InetSocketAddress("127.0.0.1", tcp.actualPort()));
      client.setSoTimeout(20_000);
      OutputStream out = client.getOutputStream();
      InputStream in = new BufferedInputStream(client.getInputStream(), 16);
      String body = "x".repeat(60_000);
      out.write(("put 0 0 60 60000\r\n" + body + "\r\n").getBytes(StandardCharsets.US_ASCII));
      assertEquals("INSERTED 1\r\n", new String(in.readNBytes(12), StandardCharsets.US_ASCII));
      // 61 MB of replies, never read: past 256 KiB held (with writes queued in the channel), the
      // server closes the connection.
      out.write("peek 1\r\n".repeat(1_024).getBytes(StandardCharsets.US_ASCII));
      out.flush();
      awaitClosedForHolding(tcp);
      // Without reading a byte: a reset makes the client's writes fail. A close that waits for
      // the queued writes would wait for ever, and the writes would go on succeeding.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      IOException failed = null;
      while (failed == null && System.nanoTime() < deadline) {
        try {
          out.write("use a\r\n".getBytes(StandardCharsets.US_ASCII));
          out.flush();
          Thread.sleep(10); // spaces the writes; the reset is what ends the loop
        } catch (IOException e) {
          failed = e;
        }
      }
      assertNotNull(failed, "the connection was not reset");
    }
  }

  private static void awaitClosedForHolding(TcpServerVerticle tcp) throws Exception {
    Await.until("a connection closed for the replies it held", () -> {
      try {
        return await(tcp.closedForHolding()) > 0;
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }, 10_000);
  }

  private static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }
}
