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
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The engine client's own life cycle, against a real engine. */
@ExtendWith(VertxExtension.class)
class EngineClientTest {

  /**
   * Runs {@code test} with a client of a real server's engine, on the client's own context, and
   * returns what the session opened for it heard: once {@code isDone} says so of it, or once
   * {@code test} completes the promise it gets.
   */
  private static List<String> heard(Vertx vertx, Predicate<List<String>> isDone,
      BiConsumer<EngineClient, Session> test) throws Exception {
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
            if (isDone.test(replies)) {
              heard.tryComplete(replies);
            }
          });
          test.accept(engine, new Session(session, replies, heard));
        });
      }
    });
    return heard.future().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  /** The session a test drives, what it heard so far, and the promise that ends the test with it. */
  private record Session(EngineSession session, List<String> replies, Promise<List<String>> done) {}

  @Test
  void aStoppingClientStillHearsWhatItsLastRequestsAnswered(Vertx vertx) throws Exception {
    assertEquals(List.of("INSERTED 1", "(ended)"), heard(vertx, r -> false, (engine, s) -> {
      // A client that hangs up in the same turn as its front stops: the put and the close are
      // still queued when stop() is called.
      s.session().submit(List.of(new Command.Put(0, 0, 60, "x".getBytes(StandardCharsets.US_ASCII), true)));
      s.session().close(true);
      engine.stop().onComplete(stopped -> s.done().complete(s.replies()));
    }));
  }

  /**
   * A replicated primary's replies that reach their front after the lease they were made under ran
   * out (the process stood still between the engine's turn and the front's write) reach the client
   * as INTERNAL_ERROR, one for one: another node may have handed the reserved job to someone else.
   */
  @Test
  void repliesThatArriveAfterTheirLeaseRanOutAnswerInternalError(Vertx vertx) throws Exception {
    assertEquals(List.of("RESERVED 1 1\r\nx", "INSERTED 2", "INTERNAL_ERROR"), heard(vertx, r -> r.size() == 3,
        (engine, s) -> {
          SessionKey key = s.session().key();
          byte[] body = "x".getBytes(StandardCharsets.US_ASCII);
          long now = System.nanoTime();
          // As the engine sends them: in time, with no deadline, and too late.
          vertx.eventBus().send(key.front(), new EngineReplies(List.of(EngineReply.of(key,
              Reply.JobBody.reserved(1, body, "default"), true, true, false)), false, now + 60_000_000_000L));
          vertx.eventBus().send(key.front(), new EngineReplies(List.of(EngineReply.of(key,
              Reply.Number.inserted(2), true, true, false)), false, EngineReplies.NO_DEADLINE));
          vertx.eventBus().send(key.front(), new EngineReplies(List.of(EngineReply.of(key,
              Reply.JobBody.reserved(3, body, "default"), true, true, false)), false, now - 1));
        }));
  }
}
