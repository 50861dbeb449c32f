package io.github.vertxbeanstalkd.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.BeanstalkServer;
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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The engine client's own life cycle, against a real engine. */
@ExtendWith(VertxExtension.class)
class EngineClientTest {

  @Test
  void aStoppingClientStillHearsWhatItsLastRequestsAnswered(Vertx vertx) throws Exception {
    BeanstalkServer server = BeanstalkServer.deploy(vertx, ServerConfig.forTests())
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    Promise<List<String>> heard = Promise.promise();
    vertx.deployVerticle(new VerticleBase() {
      @Override
      public Future<?> start() {
        return EngineClient.start(vertx, server.engineAddress()).onSuccess(engine -> {
          List<String> replies = new ArrayList<>();
          EngineSession session = engine.open(true, reply -> {
            reply.replies().forEach(r -> replies.add(ReplyEncoder.encode(r).toString(StandardCharsets.ISO_8859_1).trim()));
            if (reply.hasEnded()) {
              replies.add("(ended)");
            }
          });
          // A client that hangs up in the same turn as its front stops: the put and the close are
          // still queued when stop() is called.
          session.submit(List.of(new Command.Put(0, 0, 60, "x".getBytes(StandardCharsets.US_ASCII), true)));
          session.close(true);
          engine.stop().onComplete(stopped -> heard.complete(replies));
        });
      }
    });
    assertEquals(List.of("INSERTED 1", "(ended)"),
        heard.future().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS));
  }

  /**
   * A replicated primary's replies that reach their front after the lease they were made under ran
   * out (the process stood still between the engine's turn and the front's write) reach the client
   * as INTERNAL_ERROR, one for one: another node may have handed the reserved job to someone else.
   */
  @Test
  void repliesThatArriveAfterTheirLeaseRanOutAnswerInternalError(Vertx vertx) throws Exception {
    BeanstalkServer server = BeanstalkServer.deploy(vertx, ServerConfig.forTests())
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    Promise<List<String>> heard = Promise.promise();
    vertx.deployVerticle(new VerticleBase() {
      @Override
      public Future<?> start() {
        return EngineClient.start(vertx, server.engineAddress()).onSuccess(engine -> {
          List<String> replies = new ArrayList<>();
          EngineSession session = engine.open(true, reply -> {
            reply.replies().forEach(r -> replies.add(ReplyEncoder.encode(r).toString(StandardCharsets.ISO_8859_1).trim()));
            if (replies.size() == 3) {
              heard.complete(replies);
            }
          });
          SessionKey key = session.key();
          byte[] body = "x".getBytes(StandardCharsets.US_ASCII);
          long now = System.nanoTime();
          // As the engine sends them: in time, with no deadline, and too late.
          vertx.eventBus().send(key.front(), new EngineReplies(List.of(EngineReply.of(key,
              Reply.JobBody.reserved(1, body, "default"), true, true, false)), false, now + 60_000_000_000L));
          vertx.eventBus().send(key.front(), new EngineReplies(List.of(EngineReply.of(key,
              Reply.Number.inserted(2), true, true, false)), false, EngineReplies.NO_DEADLINE));
          vertx.eventBus().send(key.front(), new EngineReplies(List.of(EngineReply.of(key,
              Reply.JobBody.reserved(3, body, "default"), true, true, false)), false, now - 1));
        });
      }
    });
    assertEquals(List.of("RESERVED 1 1\r\nx", "INSERTED 2", "INTERNAL_ERROR"),
        heard.future().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS));
  }
}
