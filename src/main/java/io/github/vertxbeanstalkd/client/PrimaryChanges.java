package io.github.vertxbeanstalkd.client;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Ends the requests still in flight the moment a replication group announces a new primary
 * (REPLICATION.md: requests in flight at a failover fail rather than hang): a request that went
 * to the old primary gets no reply, and Vert.x would only time it out after its send timeout. Each
 * is failed as a timeout, so {@link FailoverRetry} sends again what is safe to repeat. One per
 * Vert.x and group, shared by its clients.
 *
 * @see <a href="{@docRoot}/../spec/REPLICATION.html">REPLICATION.md</a>
 */
final class PrimaryChanges {
  private static final Map<String, PrimaryChanges> BY_VERTX_AND_GROUP = new ConcurrentHashMap<>();

  private final Set<Promise<?>> inFlight = ConcurrentHashMap.newKeySet();

  /** The watcher of {@code group} on {@code vertx}, its announcement consumer registered on first use. */
  static PrimaryChanges of(Vertx vertx, String group) {
    return BY_VERTX_AND_GROUP.computeIfAbsent(System.identityHashCode(vertx) + "/" + group, key -> {
      PrimaryChanges changes = new PrimaryChanges();
      // REPLICATION.md's group announces each new primary's term here (replication.Addresses).
      vertx.eventBus().consumer(address(group), msg -> changes.failAll(msg.body()));
      return changes;
    });
  }

  static String address(String group) {
    return "beanstalkd.replication." + group + ".term";
  }

  /** {@code p} is in flight until it completes. */
  void track(Promise<?> p) {
    inFlight.add(p);
    p.future().onComplete(r -> inFlight.remove(p));
  }

  private void failAll(Object announcement) {
    for (Promise<?> p : inFlight) {
      p.tryFail(new ReplyException(ReplyFailure.TIMEOUT, -1,
          "a new primary took over (" + announcement + "); the old one never answered"));
    }
  }
}
