package io.github.vertxbeanstalkd.tcp;

import io.github.vertxbeanstalkd.bus.ConnectionRouting;
import io.github.vertxbeanstalkd.bus.EngineAddress;
import io.github.vertxbeanstalkd.bus.EngineClient;
import io.github.vertxbeanstalkd.bus.SessionHost;
import io.github.vertxbeanstalkd.config.ListenerConfig;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.metrics.CommandDurations;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.VertxException;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.SocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Accepts beanstalkd clients over TCP, and over TLS when it is on, and routes the engine's replies to
 * their connections: both listeners feed one connection table, one cap and one graceful shutdown.
 * Where each connection's session runs, this node's engine or a replication group's primary, its
 * {@link ConnectionRouting} decides.
 */
public final class TcpServerVerticle extends VerticleBase {
  private final ServerConfig config;
  private final EngineAddress address;
  private final CommandDurations durations;
  private final HashMap<Long, Connection> connections = new HashMap<>();
  private final Rejections rejections = new Rejections();
  private final HandshakeFailures handshakeFailures = new HandshakeFailures();
  /** Input chunks for every connection of this front, on its thread. */
  private final ChunkPool chunks = new ChunkPool();
  private HeldReplies heldReplies = new HeldReplies();
  private final ReadAhead readAhead = new ReadAhead();
  private final PressedReads reads = new PressedReads(readAhead);
  private final TlsCredentials tls;
  private final ConnectionRouting routing;
  private long nextLocalId = 1;
  private EngineClient engine;
  private SessionHost host;
  private NetServer server;
  private NetServer tlsServer;
  /** The listeners of {@link ServerConfig#listeners()}, in its order, once bound. */
  private final List<NetServer> more = new ArrayList<>();
  private Context context;
  private long readAheadTimer = -1;

  public TcpServerVerticle(ServerConfig config, EngineAddress address) {
    this(config, address, CommandDurations.NONE);
  }

  public TcpServerVerticle(ServerConfig config, EngineAddress address, CommandDurations durations) {
    this(config, address, durations, null);
  }

  /**
   * @param tls the TLS listener's credentials, already loaded; null without TLS. The plain listener
   *     is opened only if {@link ServerConfig#isTcpEnabled()}.
   */
  public TcpServerVerticle(ServerConfig config, EngineAddress address, CommandDurations durations,
      TlsCredentials tls) {
    this(config, address, durations, tls, ConnectionRouting.LOCAL);
  }

  /** @param routing where the connections' sessions run: {@link ConnectionRouting#LOCAL} for this node's engine */
  public TcpServerVerticle(ServerConfig config, EngineAddress address, CommandDurations durations,
      TlsCredentials tls, ConnectionRouting routing) {
    this.config = config;
    this.routing = routing;
    this.tls = tls;
    this.address = address;
    this.durations = durations;
  }

  @Override
  public Future<?> start() {
    context = vertx.getOrCreateContext();
    // Closes a connection only once the input held stayed past its limit with nothing coming (ReadAhead).
    readAheadTimer = vertx.setPeriodic(1_000, id -> readAhead.check(System.nanoTime()));
    Future<?> listening = EngineClient.start(vertx, address)
        .compose(client -> {
          engine = client;
          return routing.start(vertx, client);
        })
        .onSuccess(h -> host = h);
    if (config.isTcpEnabled()) {
      NetServerOptions options = new NetServerOptions()
          .setHost(config.host())
          .setPort(config.port())
          // Without it clients see 40 ms delayed-ACK stalls on small replies.
          .setTcpNoDelay(true);
      server = vertx.createNetServer(options).connectHandler(this::accept);
      listening = listening.compose(v -> server.listen());
    }
    if (tls != null && config.tls().isEnabled()) {
      // The same connect handler: a TLS client is a Connection like any other once the handshake is done.
      tlsServer = vertx.createNetServer(tls.serverOptions(config.tls())).connectHandler(this::accept)
          .exceptionHandler(handshakeFailures::failed);
      listening = listening.compose(v -> tlsServer.listen());
    }
    for (int i = 0; i < config.listeners().size(); i++) {
      ListenerConfig listener = config.listeners().get(i);
      String name = "listeners[" + i + "] (" + listener.describe(listener.port()) + ")";
      // The bind's own message ("Address already in use") does not say which of the listeners failed.
      listening = listening.compose(v -> listen(listener).recover(e -> Future.failedFuture(
          String.valueOf(e.getMessage()).startsWith("config:") ? e
              : new VertxException("config: '" + name + "': cannot listen: " + e.getMessage(), true))));
    }
    return listening;
  }

  /** Binds one listener of {@code listeners}: the same connect handler as the short form's. */
  private Future<NetServer> listen(ListenerConfig listener) {
    NetServerOptions options;
    if (listener.isTls()) {
      options = tls.serverOptions(config.tls());
    } else {
      // Without it clients see 40 ms delayed-ACK stalls on small replies.
      options = new NetServerOptions().setTcpNoDelay(!listener.isUnix());
    }
    NetServer bound = vertx.createNetServer(options).connectHandler(this::accept);
    if (listener.isTls()) {
      bound.exceptionHandler(handshakeFailures::failed);
    }
    more.add(bound);
    if (!listener.isUnix()) {
      return bound.listen(SocketAddress.inetSocketAddress(listener.port(), listener.host()));
    }
    return vertx.executeBlocking(() -> {
      UnixSockets.removeStale(listener.path());
      return null;
    }).compose(v -> bound.listen(SocketAddress.domainSocketAddress(listener.path().toString())));
  }

  /** The listeners of {@link ServerConfig#listeners()} as bound, for the start-up log and /readyz. */
  public List<String> moreListening() {
    List<String> where = new ArrayList<>();
    for (int i = 0; i < more.size(); i++) {
      where.add(config.listeners().get(i).describe(more.get(i).actualPort()));
    }
    return where;
  }

  /**
   * The port bound for listener {@code i} of {@link ServerConfig#listeners()}, useful when the
   * configured one was 0; -1 for a unix socket.
   */
  public int actualPort(int i) {
    return config.listeners().get(i).isUnix() ? -1 : more.get(i).actualPort();
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(readAheadTimer);
    List<Future<Void>> closing = new ArrayList<>(List.of(close(server), close(tlsServer)));
    more.forEach(m -> closing.add(close(m)));
    return Future.all(closing)
        .compose(v -> host == null ? Future.succeededFuture() : host.stop())
        .compose(v -> engine.stop());
  }

  private static Future<Void> close(NetServer listener) {
    return listener == null ? Future.succeededFuture() : listener.close();
  }

  /**
   * Stops accepting connections and lets each one finish: its commands already with the engine are
   * answered and written, then it closes (a reserve waiting for a job is not waited for). Whatever
   * is still open after {@code graceMillis} is closed. Completes with how many connections were open.
   */
  public Future<Integer> shutdown(long graceMillis) {
    Promise<Integer> done = Promise.promise();
    context.runOnContext(v -> {
      int open = connections.size();
      // The listeners stop accepting, and whatever is still open when the grace period ends is closed.
      List<Future<Void>> stopping = new ArrayList<>(List.of(shutdown(server, graceMillis), shutdown(tlsServer, graceMillis)));
      more.forEach(m -> stopping.add(shutdown(m, graceMillis)));
      Future.all(stopping).map(open).onComplete(done);
      new ArrayList<>(connections.values()).forEach(Connection::shutDown);
    });
    return done.future();
  }

  private static Future<Void> shutdown(NetServer listener, long graceMillis) {
    return listener == null ? Future.succeededFuture() : listener.shutdown(graceMillis, TimeUnit.MILLISECONDS);
  }

  /** Replaces the limit on replies held for clients that do not read (a quarter of the heap); before it is deployed. */
  TcpServerVerticle limitHeldReplies(long bytes) {
    heldReplies = new HeldReplies(bytes);
    return this;
  }

  /** Connections closed so far for the replies they held (read on its context). */
  io.vertx.core.Future<Long> closedForHolding() {
    io.vertx.core.Promise<Long> p = io.vertx.core.Promise.promise();
    context.runOnContext(v -> p.complete(heldReplies.closedConnections()));
    return p.future();
  }

  /** The bound port, useful when the configured port was 0; -1 without the plain listener. */
  public int actualPort() {
    return server == null ? -1 : server.actualPort();
  }

  /** The bound TLS port, useful when {@code tls.port} was 0; -1 without TLS. */
  public int actualTlsPort() {
    return tlsServer == null ? -1 : tlsServer.actualPort();
  }

  private void accept(NetSocket socket) {
    if (connections.size() >= config.maxConnections()) {
      // Over the cap: closed at once, before any byte is read; the others are not touched.
      socket.close();
      host.connectionRefused();
      rejections.rejected(config.maxConnections(), socket.remoteAddress());
      return;
    }
    long id = nextLocalId++;
    Connection c = new Connection(socket, context, chunks, heldReplies, readAhead, reads, host,
        config.maxJobSizeBytes(), () -> connections.remove(id), durations);
    connections.put(id, c);
    c.start();
  }
}
