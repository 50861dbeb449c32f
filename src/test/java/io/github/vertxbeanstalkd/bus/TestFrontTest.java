package io.github.vertxbeanstalkd.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.Reply;
import io.github.vertxbeanstalkd.protocol.ReplyEncoder;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A front written against the seam alone, as the next fronts (a standby's forwarding front, the
 * replication stream) will be: it opens sessions through {@link EngineClient}, submits protocol
 * commands, and hears the replies in order, with nothing of the engine touched or imported.
 */
@ExtendWith(VertxExtension.class)
class TestFrontTest {
  private Vertx vertx;
  private BeanstalkServer server;

  /** The smallest front: runs one script of commands as one connection and hands back what it heard. */
  private static final class ScriptFront extends VerticleBase {
    private final EngineAddress engineAddress;
    private final List<List<Command>> script;
    private final CompletableFuture<List<String>> heard = new CompletableFuture<>();
    private final List<String> replies = new ArrayList<>();
    private int expected;

    ScriptFront(EngineAddress engineAddress, List<List<Command>> script) {
      this.engineAddress = engineAddress;
      this.script = script;
      script.forEach(batch -> expected += batch.size());
    }

    @Override
    public Future<?> start() {
      return EngineClient.start(vertx, engineAddress).onSuccess(engine -> {
        EngineSession session = engine.open(true, this::onReply);
        script.forEach(session::submit);
      });
    }

    private void onReply(EngineReply reply) {
      for (Reply r : reply.replies()) {
        replies.add(ReplyEncoder.encode(r).toString(StandardCharsets.ISO_8859_1).trim());
      }
      if (replies.size() == expected) {
        heard.complete(replies);
      }
    }
  }

  @BeforeEach
  void deploy(Vertx vertx) throws Exception {
    this.vertx = vertx;
    server = BeanstalkServer.deploy(vertx, ServerConfig.forTests()).toCompletionStage().toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
  }

  @Test
  void aFrontOfItsOwnSharesTheQueueWithTheTcpFront() throws Exception {
    TestClient tcp = TestClient.connect(server.port());
    tcp.send("use emails").expect("USING emails");
    tcp.send("put 0 0 60 5", "hello").expect("INSERTED 1");

    ScriptFront front = new ScriptFront(server.engineAddress(), List.of(
        List.of(new Command.Watch("emails"), new Command.Reserve(0)),
        List.of(new Command.Delete(1), Command.ListTubeUsed.INSTANCE)));
    vertx.deployVerticle(front).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);

    assertEquals(List.of("WATCHING 2", "RESERVED 1 5\r\nhello", "DELETED", "USING default"),
        front.heard.get(10, TimeUnit.SECONDS));
    assertEquals("1", tcp.stats("stats-tube emails").get("cmd-delete"));
  }

  @Test
  void aCallingFrontGetsEachReplyAsAFuture() throws Exception {
    Promise<List<String>> done = Promise.promise();
    vertx.deployVerticle(new VerticleBase() {
      @Override
      public Future<?> start() {
        return EngineClient.start(vertx, server.engineAddress()).onSuccess(engine -> {
          SessionCalls calls = new SessionCalls(engine, null);
          Future<Reply> put = calls.call(new Command.Put(0, 0, 60, "x".getBytes(StandardCharsets.US_ASCII), true),
              Scope.using("calls"));
          Future<Reply> peek = calls.call(Command.PeekState.READY, Scope.using("calls"));
          Future.all(put, peek).map(v -> List.of(text(put.result()), text(peek.result()))).onComplete(done);
        });
      }
    });
    assertEquals(List.of("INSERTED 1", "FOUND 1 1\r\nx"),
        done.future().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS));
  }

  private static String text(Reply r) {
    return ReplyEncoder.encode(r).toString(StandardCharsets.ISO_8859_1).trim();
  }
}
