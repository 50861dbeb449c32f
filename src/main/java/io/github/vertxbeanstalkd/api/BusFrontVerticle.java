package io.github.vertxbeanstalkd.api;

import io.github.vertxbeanstalkd.bus.BusSessionRef;
import io.github.vertxbeanstalkd.bus.EngineAddress;
import io.github.vertxbeanstalkd.bus.EngineOutbox;
import io.github.vertxbeanstalkd.bus.EngineReplies;
import io.github.vertxbeanstalkd.bus.EngineReply;
import io.github.vertxbeanstalkd.bus.EngineRequest;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.metrics.CommandDurations;
import io.github.vertxbeanstalkd.protocol.Reply;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event-bus front (shared/spec/EVENTBUS.md): takes JSON requests on the public address, which
 * is registered cluster-wide, runs them as commands of the same engine the TCP front uses, and
 * answers each with JSON or {@code fail(code, WORD)}. When clustered it watches the membership and
 * ends the sessions of nodes that leave, so their reserved jobs return to ready at once.
 */
public final class BusFrontVerticle extends VerticleBase {
  private static final Logger log = LoggerFactory.getLogger(BusFrontVerticle.class);
  /** How often the cluster's membership is looked at; a departed node's jobs return within this. */
  static final long MEMBERSHIP_POLL_MILLIS = 1000;

  private final String publicAddress;
  private final EngineAddress engineAddress;
  private final String replyAddress;
  private final BusRequests requests;
  private final PendingCalls pending = new PendingCalls();
  private final CommandDurations durations;
  private MessageConsumer<Object> consumer;
  private MessageConsumer<EngineReplies> replies;
  private EngineOutbox engine;
  private ClusterNodes cluster;
  private Set<String> knownNodes = Set.of();
  private long membershipTimer = -1;

  public BusFrontVerticle(ServerConfig config, EngineAddress engineAddress) {
    this(config, engineAddress, CommandDurations.NONE);
  }

  /** @param durations times each request from its arrival to its reply, as the TCP front does */
  public BusFrontVerticle(ServerConfig config, EngineAddress engineAddress, CommandDurations durations) {
    this.durations = durations;
    this.publicAddress = config.eventBus().address();
    this.engineAddress = engineAddress;
    this.replyAddress = engineAddress.newReplyAddress();
    this.requests = new BusRequests(config.maxJobSizeBytes());
  }

  @Override
  public Future<?> start() {
    engine = new EngineOutbox(vertx, engineAddress);
    replies = vertx.eventBus().localConsumer(replyAddress, msg -> msg.body().replies().forEach(this::onReply));
    // EVENTBUS.md: consumer, not localConsumer, so that other cluster nodes reach it.
    consumer = vertx.eventBus().consumer(publicAddress, this::onRequest);
    cluster = ClusterNodes.of(vertx);
    if (cluster != null) {
      knownNodes = new HashSet<>(cluster.nodeIds());
      membershipTimer = vertx.setPeriodic(MEMBERSHIP_POLL_MILLIS, id -> watchMembership());
    }
    return Future.all(replies.completion(), consumer.completion())
        .onSuccess(v -> log.info("event-bus API on address '{}'{}", publicAddress,
            cluster == null ? "" : " (cluster-wide)"));
  }

  @Override
  public Future<?> stop() {
    if (membershipTimer >= 0) {
      vertx.cancelTimer(membershipTimer);
    }
    return Future.all(consumer.unregister(), replies.unregister());
  }

  private void onRequest(Message<Object> message) {
    String action = message.headers().get("action");
    if ("drain".equals(action) || "undrain".equals(action)) {
      // Server-wide, not a protocol command: straight to the engine, as SIGUSR1 does.
      boolean isDraining = action.equals("drain");
      vertx.eventBus().request(engineAddress.requests(), new EngineRequest.Drain(isDraining)).onComplete(r -> {
        if (r.succeeded()) {
          message.reply(new JsonObject().put("draining", isDraining));
        } else {
          message.fail(Failure.INTERNAL_ERROR.code(), "INTERNAL_ERROR " + r.cause().getMessage());
        }
      });
      return;
    }
    BusRequest request;
    try {
      request = requests.parse(action, message.body());
    } catch (RequestRefused refused) {
      message.fail(refused.failure().code(), refused.getMessage());
      return;
    }
    BusSessionRef session = new BusSessionRef(replyAddress, request.session());
    pending.add(session, request.nodeId(), new PendingCalls.Entry(message, action, request.isQuit(),
        request.command(), durations.isEnabled() ? System.nanoTime() : 0));
    if (request.isQuit()) {
      engine.send(new EngineRequest.EndSession(session));
    } else {
      engine.send(new EngineRequest.BusCall(session, request.nodeId(), request.tube(), request.watchTubes(),
          request.command(), request.keepsPriority()));
    }
  }

  private void onReply(EngineReply reply) {
    BusSessionRef session = (BusSessionRef) reply.client();
    for (Reply r : reply.replies()) {
      PendingCalls.Entry entry = pending.poll(session);
      if (entry == null) {
        log.error("a reply for session {} that nothing waits for", session.name());
        continue;
      }
      answer(entry, r);
    }
    if (reply.hasEnded()) {
      for (PendingCalls.Entry entry : pending.endUpToMarker(session)) {
        if (entry.message() == null) {
          continue;
        }
        if (entry.isEndMarker()) {
          entry.message().reply(new JsonObject());
        } else {
          // Queued behind a waiting reserve when the session ended: it never ran.
          entry.message().fail(Failure.NOT_FOUND.code(), "NOT_FOUND the session ended before this ran");
        }
      }
    }
  }

  private void answer(PendingCalls.Entry entry, Reply reply) {
    if (entry.command() != null && entry.sentNanos() != 0) {
      durations.record(entry.command(), System.nanoTime() - entry.sentNanos());
    }
    try {
      entry.message().reply(BusReplies.toJson(entry.action(), reply));
    } catch (RequestRefused failure) {
      entry.message().fail(failure.failure().code(), failure.getMessage());
    }
  }

  /** Ends the sessions of nodes that have left the cluster since the last look. */
  private void watchMembership() {
    Set<String> now = new HashSet<>(cluster.nodeIds());
    for (String node : knownNodes) {
      if (!now.contains(node)) {
        pending.markNodeLeft(node);
        engine.send(new EngineRequest.NodeLeft(node));
      }
    }
    knownNodes = now;
  }
}
