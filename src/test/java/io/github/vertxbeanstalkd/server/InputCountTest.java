package io.github.vertxbeanstalkd.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.bus.EngineAddress;
import io.github.vertxbeanstalkd.bus.LocalCodec;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.engine.QueueEngineVerticle;
import io.github.vertxbeanstalkd.engine.ServerInfo;
import io.github.vertxbeanstalkd.persistence.BinlogConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The front counts the commands a connection has read and not yet had answered against its
 * read-ahead limit, not only the input's bytes: 64 {@code peek}s pipelined by each of 2,200 clients
 * that never read were about 3 KiB a client of objects that only the held-replies share counted,
 * and only once replies waited.
 */
@ExtendWith(VertxExtension.class)
class InputCountTest {
  @Test
  void commandsOfABatchInFlightCountUntilItIsAnswered(Vertx vertx) throws Exception {
    LocalCodec.registerAll(vertx);
    EngineAddress address = EngineAddress.unique();
    ServerConfig config = new ServerConfig("127.0.0.1", 0, ServerConfig.DEFAULT_MAX_JOB_SIZE);
    await(vertx.deployVerticle(new QueueEngineVerticle(address, ServerInfo.gather(), config.maxJobSizeBytes(),
        BinlogConfig.inMemory())));
    TcpServerVerticle tcp = new TcpServerVerticle(config, address);
    await(vertx.deployVerticle(tcp));
    // touches of a job that does not exist: peeks would end a batch at 64 (the bodies a batch may bring back)
    int touches = 200;
    try (Socket waiting = new Socket("127.0.0.1", tcp.actualPort())) {
      waiting.setSoTimeout(10_000);
      OutputStream out = waiting.getOutputStream();
      // Each write is under the first read's 2 KiB, so it is one read and one batch.
      out.write("touch 1\r\n".repeat(touches).getBytes(StandardCharsets.US_ASCII));
      out.flush();
      waiting.getInputStream().readNBytes("NOT_FOUND\r\n".length() * touches);
      // The touches are answered and written, and the reserve waits for a job: the batch is not
      // answered until it has one, and the front keeps its commands meanwhile.
      out.write(("touch 1\r\n".repeat(touches) + "reserve\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      waiting.getInputStream().readNBytes("NOT_FOUND\r\n".length() * touches);
      long commands = (touches + 1) * BatchLimits.COMMAND_HEAP_BYTES;
      long counted = awaitCount(tcp, n -> n >= commands);
      assertTrue(counted < commands + 8 * 1024, "the commands, and at most a chunk of input: " + counted);

      try (TestClient producer = TestClient.connect(tcp.actualPort())) {
        producer.send("put 0 0 60 1", "x").expect("INSERTED 1");
      }
      awaitCount(tcp, n -> n < BatchLimits.COMMAND_HEAP_BYTES * 100);
    }
  }

  /** Polls the front's count on its context until {@code until} holds it; fails after 10 s. */
  private static long awaitCount(TcpServerVerticle tcp, LongPredicate until) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    long last = -1;
    while (System.nanoTime() < deadline) {
      last = await(tcp.inputHeldBytes());
      if (until.test(last)) {
        return last;
      }
      Thread.sleep(10);
    }
    throw new AssertionError("the front's input count stayed at " + last);
  }

  private static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }
}
