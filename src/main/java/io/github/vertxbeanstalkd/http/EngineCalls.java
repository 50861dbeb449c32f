package io.github.vertxbeanstalkd.http;

import io.github.vertxbeanstalkd.bus.BusSessionRef;
import io.github.vertxbeanstalkd.bus.EngineAddress;
import io.github.vertxbeanstalkd.bus.EngineOutbox;
import io.github.vertxbeanstalkd.bus.EngineReplies;
import io.github.vertxbeanstalkd.bus.EngineReply;
import io.github.vertxbeanstalkd.bus.EngineRequest;
import io.github.vertxbeanstalkd.bus.EngineSnapshot;
import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.Reply;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import java.util.ArrayDeque;

/**
 * Runs the admin API's commands in the engine, as one event-bus session of its own: the engine
 * answers a session's commands in order, so replies are matched to calls first in, first out.
 * Used on the HTTP front's own context only.
 */
final class EngineCalls {
  private final Vertx vertx;
  private final EngineAddress address;
  private final BusSessionRef session;
  private final ArrayDeque<Promise<Reply>> waiting = new ArrayDeque<>();
  private EngineOutbox outbox;
  private MessageConsumer<EngineReplies> replies;

  EngineCalls(Vertx vertx, EngineAddress address) {
    this.vertx = vertx;
    this.address = address;
    this.session = new BusSessionRef(address.newReplyAddress(), null);
  }

  Future<Void> start() {
    outbox = new EngineOutbox(vertx, address);
    replies = vertx.eventBus().localConsumer(session.replyAddress(), msg -> {
      for (EngineReply reply : msg.body().replies()) {
        for (Reply r : reply.replies()) {
          Promise<Reply> p = waiting.poll();
          if (p != null) {
            p.complete(r);
          }
        }
      }
    });
    return replies.completion();
  }

  Future<Void> stop() {
    waiting.forEach(p -> p.tryFail("the server is stopping"));
    waiting.clear();
    return replies == null ? Future.succeededFuture() : replies.unregister();
  }

  /** Runs {@code command} with {@code tube} in use (null: no tube needed) and answers its reply. */
  Future<Reply> call(String tube, Command command) {
    Promise<Reply> p = Promise.promise();
    waiting.add(p);
    outbox.send(new EngineRequest.BusCall(session, null, tube, null, command, false));
    return p.future();
  }

  /** A fresh snapshot of the engine's counts; fails while the engine is not running yet. */
  Future<EngineSnapshot> snapshot() {
    return vertx.eventBus().<EngineSnapshot>request(address.requests(), new EngineRequest.Snapshot())
        .map(msg -> msg.body());
  }

  /** Enters or leaves drain mode. */
  Future<Void> drain(boolean isDraining) {
    return vertx.eventBus().request(address.requests(), new EngineRequest.Drain(isDraining)).mapEmpty();
  }
}
