package io.github.vertxbeanstalkd.client;

import io.github.vertxbeanstalkd.cluster.AddressRoutes;
import io.github.vertxbeanstalkd.cluster.ClusterNodes;
import io.github.vertxbeanstalkd.contract.Action;
import io.github.vertxbeanstalkd.contract.Failure;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * A typed client of the event-bus API (EVENTBUS.md), for apps in the server's JVM or
 * on another node of its cluster. It speaks the JSON contract; the queue's refusals fail the
 * futures with a {@link BeanstalkException} that names the protocol's word.
 *
 * <p>A client is one session: the jobs it reserves are held by it, and only it may delete,
 * release, bury or touch them. Its session requests run in order, as a connection's commands do,
 * so a request sent while a reserve of the same client waits is answered after that reserve; use
 * one client per concurrent reserver, or {@link #consume}, which does that for you. {@link #close()}
 * ends the session: its reserved jobs return to ready at once. On a cluster, the client tells the
 * server its node, and the server ends the session if that node leaves.
 *
 * <p>Through a failover (REPLICATION.md) a request that reached no node is sent again until the
 * new primary takes the address, for up to {@link BeanstalkClientOptions#failoverRetryMillis()};
 * so is a reserve, peek or stats whose reply timed out. Other requests that found the queue
 * unreachable fail with a {@link QueueUnreachableException} that says whether they may have happened.
 *
 * @see <a href="{@docRoot}/../spec/EVENTBUS.html">EVENTBUS.md</a>
 * @see <a href="{@docRoot}/../spec/REPLICATION.html">REPLICATION.md</a>
 */
public final class BeanstalkClient {
  private final Vertx vertx;
  private final BeanstalkClientOptions options;
  private final String nodeId;
  private final PrimaryChanges primaryChanges;
  private final AddressRoutes routes;

  private BeanstalkClient(Vertx vertx, BeanstalkClientOptions options) {
    this.vertx = vertx;
    this.options = options;
    ClusterNodes cluster = ClusterNodes.of(vertx);
    this.nodeId = cluster == null ? null : cluster.localNodeId();
    // The group is named after the address by default (REPLICATION.md replication.group).
    this.primaryChanges = PrimaryChanges.of(vertx, options.address());
    this.routes = new AddressRoutes(vertx);
  }

  /** A client of the server at the default address, with a new session. */
  public static BeanstalkClient create(Vertx vertx) {
    return new BeanstalkClient(vertx, new BeanstalkClientOptions());
  }

  public static BeanstalkClient create(Vertx vertx, BeanstalkClientOptions options) {
    return new BeanstalkClient(vertx, options);
  }

  public String session() {
    return options.session();
  }

  // ---------------------------------------------------------------- producing

  /** Puts a text job (its UTF-8 bytes) with the default priority, no delay and 60 s to run; gives its id. */
  public Future<Long> put(String tube, String body) {
    return put(tube, body, PutOptions.DEFAULTS);
  }

  /** A text job: the string travels as it is, and the server encodes it to UTF-8, once. */
  public Future<Long> put(String tube, String body, PutOptions put) {
    return request(Action.PUT, putRequest(tube, put).put("body", body)).map(r -> r.getLong("id"));
  }

  /**
   * A job of any bytes. They travel as {@code bodyBase64}: in this JVM as the bytes themselves (the
   * server reads them without decoding), across a cluster as the base64 text the contract names.
   */
  public Future<Long> put(String tube, Buffer body, PutOptions put) {
    return request(Action.PUT, putRequest(tube, put).put("bodyBase64", body.getBytes())).map(r -> r.getLong("id"));
  }

  private static JsonObject putRequest(String tube, PutOptions put) {
    return new JsonObject().put("tube", tube)
        .put("pri", put.priority()).put("delay", put.delaySeconds()).put("ttr", put.ttrSeconds());
  }

  // ---------------------------------------------------------------- consuming

  /**
   * Reserves the best ready job of {@code tubes}, waiting up to {@code timeoutSeconds} (0: only a
   * job that is ready now); fails with TIMED_OUT, or DEADLINE_SOON while a job this client holds
   * is about to time out. A negative timeout fails with BAD_FORMAT: the bus has no "forever".
   */
  public Future<BeanstalkJob> reserve(List<String> tubes, long timeoutSeconds) {
    return reserve(tubes, timeoutSeconds, () -> false);
  }

  /** A reserve that stops retrying through a failover once {@code isCancelled} says so. */
  Future<BeanstalkJob> reserve(List<String> tubes, long timeoutSeconds, BooleanSupplier isCancelled) {
    JsonObject json = sessionRequest().put("tubes", new JsonArray(new ArrayList<>(tubes)));
    return FailoverRetry.send(vertx, routes, options, Action.RESERVE, elapsedMillis -> {
      // A retried reserve waits only what is left of its timeout; a negative one stays BAD_FORMAT.
      long leftSeconds = timeoutSeconds < 0 ? timeoutSeconds
          : Math.max(0, timeoutSeconds - (elapsedMillis + 500) / 1000);
      // EVENTBUS.md: the sender's send timeout is above the reserve's wait.
      long waitMillis = leftSeconds * 1000 + options.reserveMarginMillis();
      return send(Action.RESERVE, json.copy().put("timeout", leftSeconds), waitMillis);
    }, isCancelled).recover(BeanstalkClient::typed).map(BeanstalkJob::fromJson);
  }

  public Future<BeanstalkJob> reserve(String tube, long timeoutSeconds) {
    return reserve(List.of(tube), timeoutSeconds);
  }

  /** Reserves the job with this id, whatever tube or state (ready, delayed, buried) it is in. */
  public Future<BeanstalkJob> reserveJob(long id) {
    return request(Action.RESERVE_JOB, sessionRequest().put("id", id)).map(BeanstalkJob::fromJson);
  }

  /** Deletes a job this client holds, or any job that is not reserved. */
  public Future<Void> delete(long id) {
    return request(Action.DELETE, sessionRequest().put("id", id)).mapEmpty();
  }

  /** Releases a job this client holds, with the default priority and no delay. */
  public Future<Void> release(long id) {
    return request(Action.RELEASE, sessionRequest().put("id", id)).mapEmpty();
  }

  public Future<Void> release(long id, long priority, long delaySeconds) {
    return request(Action.RELEASE, sessionRequest().put("id", id).put("pri", priority).put("delay", delaySeconds))
        .mapEmpty();
  }

  /** Buries a job this client holds, keeping its priority. */
  public Future<Void> bury(long id) {
    return request(Action.BURY, sessionRequest().put("id", id)).mapEmpty();
  }

  public Future<Void> bury(long id, long priority) {
    return request(Action.BURY, sessionRequest().put("id", id).put("pri", priority)).mapEmpty();
  }

  /** Gives a job this client holds its whole time-to-run again. */
  public Future<Void> touch(long id) {
    return request(Action.TOUCH, sessionRequest().put("id", id)).mapEmpty();
  }

  /**
   * Keeps reserving from {@code tubes} and hands each job to {@code handler}, at most
   * {@code options.concurrency()} at a time: the job is deleted when the handler's future
   * succeeds, and released with a growing delay when it fails. Each of the concurrent reservers is
   * a session of its own, derived from this client's.
   */
  public JobConsumer consume(List<String> tubes, ConsumeOptions consume,
      Function<BeanstalkJob, Future<?>> handler) {
    List<BeanstalkClient> slots = new ArrayList<>();
    for (int i = 0; i < consume.concurrency(); i++) {
      slots.add(new BeanstalkClient(vertx, options.withSession(options.session() + "#" + i)));
    }
    return new JobConsumer(vertx, slots, List.copyOf(tubes), consume, handler);
  }

  // ---------------------------------------------------------------- looking and managing

  public Future<Long> kick(String tube, long bound) {
    return request(Action.KICK, new JsonObject().put("tube", tube).put("bound", bound)).map(r -> r.getLong("kicked"));
  }

  public Future<Void> kickJob(long id) {
    return request(Action.KICK_JOB, new JsonObject().put("id", id)).mapEmpty();
  }

  public Future<BeanstalkJob> peek(long id) {
    return request(Action.PEEK, new JsonObject().put("id", id)).map(BeanstalkJob::fromJson);
  }

  public Future<BeanstalkJob> peekReady(String tube) {
    return request(Action.PEEK_READY, new JsonObject().put("tube", tube)).map(BeanstalkJob::fromJson);
  }

  public Future<BeanstalkJob> peekDelayed(String tube) {
    return request(Action.PEEK_DELAYED, new JsonObject().put("tube", tube)).map(BeanstalkJob::fromJson);
  }

  public Future<BeanstalkJob> peekBuried(String tube) {
    return request(Action.PEEK_BURIED, new JsonObject().put("tube", tube)).map(BeanstalkJob::fromJson);
  }

  /** stats-job's keys, numbers as numbers. */
  public Future<JsonObject> statsJob(long id) {
    return request(Action.STATS_JOB, new JsonObject().put("id", id));
  }

  public Future<JsonObject> statsTube(String tube) {
    return request(Action.STATS_TUBE, new JsonObject().put("tube", tube));
  }

  public Future<JsonObject> stats() {
    return request(Action.STATS, new JsonObject());
  }

  public Future<List<String>> listTubes() {
    return request(Action.LIST_TUBES, new JsonObject()).map(r -> {
      List<String> names = new ArrayList<>();
      r.getJsonArray("tubes").forEach(name -> names.add((String) name));
      return names;
    });
  }

  /** Pauses a tube for that many seconds; 0 ends a pause. */
  public Future<Void> pauseTube(String tube, long delaySeconds) {
    return request(Action.PAUSE_TUBE, new JsonObject().put("tube", tube).put("delay", delaySeconds)).mapEmpty();
  }

  /** Drain mode, as SIGUSR1: every put that would be stored fails with DRAINING until {@link #undrain()}. */
  public Future<Void> drain() {
    return request(Action.DRAIN, new JsonObject()).mapEmpty();
  }

  /** Leaves drain mode without a restart: puts are accepted again. */
  public Future<Void> undrain() {
    return request(Action.UNDRAIN, new JsonObject()).mapEmpty();
  }

  /** Ends this client's session (quit): a reserve it waits in ends, and its jobs return to ready. */
  public Future<Void> close() {
    return request(Action.QUIT, sessionRequest()).mapEmpty();
  }

  // ---------------------------------------------------------------- the contract

  /** A request that runs in this client's session, naming this node on a cluster. */
  private JsonObject sessionRequest() {
    JsonObject json = new JsonObject().put("session", options.session());
    return nodeId == null ? json : json.put("node", nodeId);
  }

  private Future<JsonObject> request(Action action, JsonObject body) {
    long timeoutMillis = options.requestTimeoutMillis();
    return FailoverRetry.send(vertx, routes, options, action, elapsedMillis -> send(action, body, timeoutMillis), () -> false)
        .recover(BeanstalkClient::typed);
  }

  private Future<JsonObject> send(Action action, JsonObject body, long timeoutMillis) {
    DeliveryOptions delivery = new DeliveryOptions().addHeader(Action.HEADER, action.word()).setSendTimeout(timeoutMillis);
    Promise<JsonObject> reply = Promise.promise();
    primaryChanges.track(reply);
    vertx.eventBus().<JsonObject>request(options.address(), body, delivery).map(message -> message.body())
        .onComplete(reply::tryComplete, reply::tryFail);
    return reply.future();
  }

  /** A refusal by the queue becomes a BeanstalkException; delivery problems stay as they are. */
  private static Future<JsonObject> typed(Throwable error) {
    if (error instanceof ReplyException re && re.failureType() == ReplyFailure.RECIPIENT_FAILURE) {
      Failure failure = Failure.of(re.getMessage());
      if (failure != null) {
        return Future.failedFuture(new BeanstalkException(failure, re.getMessage()));
      }
    }
    return Future.failedFuture(error);
  }
}
