package io.github.vertxbeanstalkd.cluster;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.spi.cluster.RegistrationInfo;
import io.vertx.core.spi.cluster.RegistrationListener;
import io.vertx.core.spi.cluster.RegistrationUpdateEvent;
import java.lang.reflect.Field;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's routes to event-bus addresses, read again from the cluster on demand.
 *
 * <p>Vert.x 5.0 caches, for each address a node sends to, which nodes serve it, and updates that
 * cache only when the cluster manager reports a change to that address's registrations (it ignores
 * "registrations lost"). A node that Hazelcast split off and merged back, as after a SIGSTOP longer
 * than the failure timeout, missed every change made while it was apart, and nothing reports them
 * afterwards. Its cache may still name a node that no longer serves the address (that node drops
 * the requests: TIMEOUT) or itself (NO_HANDLERS), for as long as the address's registrations stay
 * as they are: minutes, in a SIGSTOP run. This reads the address's registrations from the cluster
 * manager and hands them to the event bus's node selector as the cluster manager's own update
 * would. Vert.x 5.0 has no public way to the selector, so, as {@link ClusterNodes} does for the
 * cluster manager, this one class reaches it through the event bus's field, checked by its test.
 */
public final class AddressRoutes {
  private static final Logger log = LoggerFactory.getLogger(AddressRoutes.class);

  private final Vertx vertx;
  private final Set<String> refreshing = ConcurrentHashMap.newKeySet();

  public AddressRoutes(Vertx vertx) {
    this.vertx = vertx;
  }

  /**
   * Makes this node read again who serves {@code address}, unless that is already under way. A
   * Vert.x that is not clustered has no such cache to go stale, and nothing is done.
   */
  public void refresh(String address) {
    RegistrationListener selector = vertx.isClustered() ? selector(vertx) : null;
    if (selector == null || !refreshing.add(address)) {
      return;
    }
    Promise<List<RegistrationInfo>> registrations = Promise.promise();
    ClusterNodes.of(vertx).manager().getRegistrations(address, registrations);
    registrations.future().onComplete(r -> {
      refreshing.remove(address);
      if (r.succeeded()) {
        selector.registrationsUpdated(new RegistrationUpdateEvent(address, r.result()));
      }
    });
  }

  /** Whether a request failed so that its route may be stale: no node took it, or no reply came. */
  public static boolean mayBeStale(Throwable cause) {
    return cause instanceof ReplyException re
        && (re.failureType() == ReplyFailure.NO_HANDLERS || re.failureType() == ReplyFailure.TIMEOUT);
  }

  private static RegistrationListener selector(Vertx vertx) {
    Object bus = vertx.eventBus();
    for (Class<?> c = bus.getClass(); c != null; c = c.getSuperclass()) {
      try {
        Field f = c.getDeclaredField("nodeSelector");
        f.setAccessible(true);
        return (RegistrationListener) f.get(bus);
      } catch (NoSuchFieldException e) {
        // a superclass may hold it
      } catch (ReflectiveOperationException | RuntimeException e) {
        break;
      }
    }
    log.warn("replication: this Vert.x's event bus has no node selector to refresh; a route made stale by a"
        + " cluster split stays so until the address's registrations change");
    return null;
  }
}
