package io.github.vertxbeanstalkd.bench;

import io.github.vertxbeanstalkd.BeanstalkServer;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The Vert.x instance a bus case sends from, the server's event-bus address, and the context
 * every request of the bench is sent from. In-JVM, the bench deploys the whole server into its
 * own Vert.x (TCP on a free port too, so TCP load can run against the same server); clustered, it
 * joins the cluster of a server started separately with {@code -cluster}.
 */
final class BusTarget implements AutoCloseable {
  private static final long START_SECONDS = 60;
  /** How long a clustered server's address may take to become known to this node. */
  private static final long REACH_MILLIS = 30_000;

  private final Vertx vertx;
  private final String address;
  private final ServerAddress tcp;
  private final String name;
  private final Context context;
  /** The server deployed in-JVM, or null when it runs elsewhere. */
  private final BeanstalkServer server;

  private BusTarget(Vertx vertx, BeanstalkServer server, String address, ServerAddress tcp, String name) {
    this.vertx = vertx;
    this.server = server;
    this.address = address;
    this.tcp = tcp;
    this.name = name;
    // From a non-Vert.x thread this is a new event-loop context; every phase reuses it.
    this.context = vertx.getOrCreateContext();
  }

  /** A new Vert.x with {@code eventLoops} event loops and a server deployed into it (TCP on a free port). */
  static BusTarget inJvm(int eventLoops, String address) {
    Vertx vertx = Vertx.builder().with(options(eventLoops)).build();
    try {
      JsonObject config = new JsonObject().put("host", "127.0.0.1").put("port", 0)
          .put("eventBus", new JsonObject().put("address", address)).put("http", new JsonObject().put("enabled", false));
      BeanstalkServer server = await(BeanstalkServer.deploy(vertx, config), "deploying the server");
      return new BusTarget(vertx, server, address, new ServerAddress("127.0.0.1", server.port()),
          "bus " + address + " in-JVM");
    } catch (RuntimeException e) {
      vertx.close();
      throw e;
    }
  }

  /**
   * Joins the Vert.x cluster (the cluster manager is found on the class path, Hazelcast's
   * configuration in {@code -Dvertx.hazelcast.config}) and waits until {@code address} answers.
   *
   * @param tcp the same server's TCP address, for the TCP side of a matrix, or null
   */
  static BusTarget cluster(int eventLoops, String address, ServerAddress tcp) {
    VertxOptions options = options(eventLoops);
    options.getEventBusOptions().setHost("127.0.0.1").setPort(0).setClusterPublicHost("127.0.0.1");
    Vertx vertx = await(Vertx.builder().with(options).buildClustered(),
        "joining the cluster (is a cluster manager such as vertx-hazelcast on the class path?)");
    try {
      awaitAddress(vertx, address);
      return new BusTarget(vertx, null, address, tcp, "bus " + address + " clustered");
    } catch (RuntimeException e) {
      vertx.close();
      throw e;
    }
  }

  private static VertxOptions options(int eventLoops) {
    return new VertxOptions().setEventLoopPoolSize(eventLoops).setPreferNativeTransport(true);
  }

  /** Sends stats until it is answered: a clustered consumer becomes known to other nodes a little later. */
  private static void awaitAddress(Vertx vertx, String address) {
    DeliveryOptions stats = new DeliveryOptions().addHeader("action", "stats").setSendTimeout(2000);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(REACH_MILLIS);
    RuntimeException last = null;
    while (System.nanoTime() < deadline) {
      try {
        await(vertx.eventBus().request(address, new JsonObject(), stats), "stats on " + address);
        return;
      } catch (RuntimeException e) {
        last = e;
        sleep(200);
      }
    }
    throw new IllegalStateException("no server answers on event-bus address '" + address + "' after "
        + REACH_MILLIS + " ms: " + last.getMessage(), last);
  }

  Vertx vertx() {
    return vertx;
  }

  String address() {
    return address;
  }

  Context context() {
    return context;
  }

  /** The same server's TCP address, or null when unknown. */
  ServerAddress tcp() {
    return tcp;
  }

  /** For reports, e.g. "bus beanstalkd in-JVM". */
  String name() {
    return name;
  }

  /** Which thread the bench's requests are sent from and answered on. */
  String describeThreads() {
    String[] thread = new String[1];
    await(Future.future(p -> context.runOnContext(v -> {
      thread[0] = Thread.currentThread().getName();
      p.complete();
    })), "looking up the bench context's thread");
    return "requests sent from " + thread[0] + ", " + Runtime.getRuntime().availableProcessors() + " CPUs";
  }

  @Override
  public void close() {
    try {
      // The server first, so its fronts stop before its engine does.
      await((server == null ? Future.<Void>succeededFuture() : server.close()).eventually(vertx::close),
          "closing Vert.x");
    } catch (RuntimeException e) {
      // Closing is best effort: the results are already printed.
    }
  }

  static <T> T await(Future<T> future, String what) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(START_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while " + what, e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(what + " failed: " + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException(what + " took over " + START_SECONDS + " s", e);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis); // the load generator's pacing, not a wait for an event
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
