package io.github.vertxbeanstalkd.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.multimap.MultiMap;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.lang.reflect.Field;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node whose route to an address went stale finds the address's server again. The stale route is
 * made as a split and merge makes it (REPLICATION.md's SIGSTOP runs): the node stops hearing of
 * registration changes (here its listener on Vert.x's subscription map is removed; after a merge,
 * the changes made while it was apart are never reported), and the address moves from the other
 * node to itself. Its requests still go to the other node, which drops them, until the route is
 * read again.
 */
class AddressRoutesTest {
  private static final String ADDRESS = "routes-test";
  private final LoopbackCluster cluster = new LoopbackCluster(2);
  private Vertx one;
  private Vertx two;

  @AfterEach
  void close() {
    for (Vertx v : new Vertx[] {one, two}) {
      if (v != null) {
        await(v.close());
      }
    }
  }

  @Test
  void aStaleRouteSendsToANodeThatDropsTheRequestsUntilItIsRefreshed() throws Exception {
    one = await(cluster.node(0));
    two = await(cluster.node(1));
    var onTwo = two.eventBus().<String>consumer(ADDRESS, m -> m.reply("two"));
    await(onTwo.completion());
    eventually(() -> "two".equals(ask()));

    stopHearingRegistrationChanges(one);
    await(onTwo.unregister());
    await(one.eventBus().<String>consumer(ADDRESS, m -> m.reply("one")).completion());

    ReplyException stale = assertInstanceOf(ReplyException.class, failure(request()));
    assertEquals(ReplyFailure.TIMEOUT, stale.failureType(), "the stale route leads to node two, which drops it");
    assertTrue(AddressRoutes.mayBeStale(stale));

    new AddressRoutes(one).refresh(ADDRESS);

    eventually(() -> "one".equals(ask()));
  }

  /** Removes node {@code vertx}'s listener on Vert.x's subscription map, as a merge loses its events. */
  private static void stopHearingRegistrationChanges(Vertx vertx) throws ReflectiveOperationException {
    HazelcastClusterManager manager = (HazelcastClusterManager) ClusterNodes.of(vertx).manager();
    Object helper = field(manager, "subsMapHelper");
    MultiMap<?, ?> subs = (MultiMap<?, ?>) field(helper, "map");
    assertTrue(subs.removeEntryListener((UUID) field(helper, "listenerId")));
  }

  private static Object field(Object owner, String name) throws ReflectiveOperationException {
    Field f = owner.getClass().getDeclaredField(name);
    f.setAccessible(true);
    return f.get(owner);
  }

  private Future<String> request() {
    return one.eventBus().<String>request(ADDRESS, "?", new DeliveryOptions().setSendTimeout(500)).map(m -> m.body());
  }

  private String ask() {
    try {
      return await(request());
    } catch (CompletionException e) {
      return null;
    }
  }

  private static Throwable failure(Future<?> f) {
    try {
      await(f);
    } catch (CompletionException e) {
      return e.getCause();
    }
    throw new AssertionError("the request succeeded");
  }

  private static void eventually(java.util.function.BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "not within 15 s");
    }
  }

  private static <T> T await(Future<T> f) {
    return f.toCompletionStage().toCompletableFuture().join();
  }
}
