package io.github.vertxbeanstalkd.api;

import io.github.vertxbeanstalkd.cluster.ClusterNodes;
import io.github.vertxbeanstalkd.bus.EngineAddress;
import io.github.vertxbeanstalkd.bus.EngineClient;
import io.github.vertxbeanstalkd.bus.SessionCalls;
import io.github.vertxbeanstalkd.contract.Action;
import io.github.vertxbeanstalkd.contract.Failure;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.metrics.CommandDurations;
import io.github.vertxbeanstalkd.protocol.Reply;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event-bus front (EVENTBUS.md): takes JSON requests on the public address, which
 * is registered cluster-wide, runs them as commands of engine sessions, and answers each with JSON
 * or {@code fail(code, WORD)}. A named session lives in the engine while it holds a job or has a
 * request out; when clustered, the sessions of a node that leaves are ended, so their reserved
 * jobs return to ready at once.
 *
 * @see <a href="{@docRoot}/../spec/EVENTBUS.html">EVENTBUS.md</a>
 */
public final class BusFrontVerticle extends VerticleBase {
  private static final Logger log = LoggerFactory.getLogger(BusFrontVerticle.class);
  /** How often the cluster's membership is looked at; a departed node's jobs return within this. */
  static final long MEMBERSHIP_POLL_MILLIS = 1000;

  /** A named session and the cluster node its requests come from (null when not clustered). */
  private record Named(SessionCalls calls, String nodeId) {}

  private final String publicAddress;
  private final EngineAddress engineAddress;
  private final BusRequests requests;
  private final CommandDurations durations;
  private final Map<String, Named> sessions = new HashMap<>();
  private EngineClient engine;
  /** Runs the requests that name no session. */
  private SessionCalls anonymous;
  private MessageConsumer<Object> consumer;
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
    this.requests = new BusRequests(config.maxJobSizeBytes());
  }

  @Override
  public Future<?> start() {
    return EngineClient.start(vertx, engineAddress).compose(client -> {
      engine = client;
      anonymous = new SessionCalls(engine, null);
      // EVENTBUS.md: consumer, not localConsumer, so that other cluster nodes reach it.
      consumer = vertx.eventBus().consumer(publicAddress, this::onRequest);
      cluster = ClusterNodes.of(vertx);
      if (cluster != null) {
        knownNodes = new HashSet<>(cluster.nodeIds());
        membershipTimer = vertx.setPeriodic(MEMBERSHIP_POLL_MILLIS, id -> watchMembership());
      }
      return consumer.completion();
    }).onSuccess(v -> log.info("event-bus API on address '{}'{}", publicAddress,
        cluster == null ? "" : " (cluster-wide)"));
  }

  @Override
  public Future<?> stop() {
    if (membershipTimer >= 0) {
      vertx.cancelTimer(membershipTimer);
    }
    return consumer.unregister().compose(v -> engine.stop());
  }

  private void onRequest(Message<Object> message) {
    String action = message.headers().get(Action.HEADER);
    Action word = Action.of(action);
    if (word == Action.DRAIN || word == Action.UNDRAIN) {
      // Server-wide, not a protocol command: straight to the engine, as SIGUSR1 does.
      boolean isDraining = word == Action.DRAIN;
      engine.drain(isDraining).onComplete(r -> {
        if (r.succeeded()) {
          message.reply(new JsonObject().put("draining", isDraining));
        } else {
          message.fail(Failure.INTERNAL_ERROR.code(), "INTERNAL_ERROR " + r.cause().getMessage());
        }
      });
      return;
    }
    if (TubeSettingsActions.isOne(action)) {
      TubeSettingsActions.run(engine, action, message);
      return;
    }
    BusRequest request;
    try {
      request = requests.parse(action, message.body());
    } catch (RequestRefused refused) {
      message.fail(refused.failure().code(), refused.getMessage());
      return;
    }
    if (request.isQuit()) {
      Named named = sessions.remove(request.session());
      Future<Void> ended = named == null ? Future.succeededFuture() : named.calls().close();
      ended.onComplete(r -> message.reply(new JsonObject()));
      return;
    }
    long sentNanos = durations.isEnabled() ? System.nanoTime() : 0;
    calls(request).call(request.command(), request.scope()).onComplete(r -> {
      if (sentNanos != 0) {
        durations.record(request.command(), System.nanoTime() - sentNanos);
      }
      answer(message, action, r);
    });
  }

  /** The calls of the request's session, opened in the engine on its first request. */
  private SessionCalls calls(BusRequest request) {
    String name = request.session();
    if (name == null) {
      return anonymous;
    }
    Named named = sessions.get(name);
    if (named == null || (request.nodeId() != null && !request.nodeId().equals(named.nodeId()))) {
      SessionCalls calls = named != null ? named.calls() : new SessionCalls(engine, () -> forgetIfIdle(name));
      named = new Named(calls, request.nodeId());
      sessions.put(name, named);
    }
    return named.calls();
  }

  /** EVENTBUS.md: a session costs nothing once it holds no job and awaits nothing. */
  private void forgetIfIdle(String name) {
    Named named = sessions.get(name);
    if (named != null && named.calls().isIdle()) {
      sessions.remove(name);
      named.calls().close();
    }
  }

  private static void answer(Message<Object> message, String action, AsyncResult<Reply> result) {
    if (result.failed()) {
      // Queued behind a waiting reserve when the session ended: it never ran.
      Failure f = result.cause() instanceof SessionCalls.SessionEnded ? Failure.NOT_FOUND : Failure.INTERNAL_ERROR;
      message.fail(f.code(), f.name() + " " + result.cause().getMessage());
      return;
    }
    try {
      message.reply(BusReplies.toJson(action, result.result()));
    } catch (RequestRefused failure) {
      message.fail(failure.failure().code(), failure.getMessage());
    }
  }

  /** Ends the sessions of nodes that have left the cluster since the last look. */
  private void watchMembership() {
    Set<String> now = new HashSet<>(cluster.nodeIds());
    for (String node : knownNodes) {
      if (!now.contains(node)) {
        log.info("cluster node {} left: its event-bus sessions end and their jobs return to ready", node);
        sessions.values().removeIf(named -> {
          if (node.equals(named.nodeId())) {
            named.calls().close();
            return true;
          }
          return false;
        });
      }
    }
    knownNodes = now;
  }
}
