package io.github.vertxbeanstalkd.server;

import io.github.vertxbeanstalkd.bus.ConnectionRef;
import io.github.vertxbeanstalkd.bus.EngineAddress;
import io.github.vertxbeanstalkd.bus.EngineOutbox;
import io.github.vertxbeanstalkd.bus.EngineReplies;
import io.github.vertxbeanstalkd.bus.EngineReply;
import io.github.vertxbeanstalkd.bus.EngineRequest;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.metrics.CommandDurations;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.concurrent.TimeUnit;

/** Accepts beanstalkd clients over TCP and routes the engine's replies to their connections. */
public final class TcpServerVerticle extends VerticleBase {
  private final ServerConfig config;
  private final EngineAddress address;
  private final String replyAddress;
  private final CommandDurations durations;
  private final HashMap<Long, Connection> connections = new HashMap<>();
  private final Rejections rejections = new Rejections();
  private long nextLocalId = 1;
  private MessageConsumer<EngineReplies> replies;
  private EngineOutbox engine;
  private NetServer server;
  private Context context;

  public TcpServerVerticle(ServerConfig config, EngineAddress address) {
    this(config, address, CommandDurations.NONE);
  }

  public TcpServerVerticle(ServerConfig config, EngineAddress address, CommandDurations durations) {
    this.config = config;
    this.address = address;
    this.replyAddress = address.newReplyAddress();
    this.durations = durations;
  }

  @Override
  public Future<?> start() {
    context = vertx.getOrCreateContext();
    engine = new EngineOutbox(vertx, address);
    replies = vertx.eventBus().localConsumer(replyAddress, msg -> {
      for (EngineReply reply : msg.body().replies()) {
        Connection c = connections.get(((ConnectionRef) reply.client()).localId());
        if (c != null) {
          c.onReply(reply);
        }
      }
    });
    NetServerOptions options = new NetServerOptions()
        .setHost(config.host())
        .setPort(config.port())
        // Without it clients see 40 ms delayed-ACK stalls on small replies.
        .setTcpNoDelay(true);
    server = vertx.createNetServer(options).connectHandler(this::accept);
    return replies.completion().compose(v -> server.listen());
  }

  @Override
  public Future<?> stop() {
    return server.close().compose(v -> replies.unregister());
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
      // The listener stops accepting, and whatever is still open when the grace period ends is closed.
      server.shutdown(graceMillis, TimeUnit.MILLISECONDS).map(open).onComplete(done);
      new ArrayList<>(connections.values()).forEach(Connection::shutDown);
    });
    return done.future();
  }

  /** The bound port, useful when the configured port was 0. */
  public int actualPort() {
    return server.actualPort();
  }

  private void accept(NetSocket socket) {
    if (connections.size() >= config.maxConnections()) {
      // Over the cap: closed at once, before any byte is read; the others are not touched.
      socket.close();
      engine.send(new EngineRequest.ConnectionRejected());
      rejections.rejected(config.maxConnections(), socket.remoteAddress());
      return;
    }
    long id = nextLocalId++;
    Connection c = new Connection(socket, new ConnectionRef(replyAddress, id), engine::send,
        config.maxJobSizeBytes(), () -> connections.remove(id), durations);
    connections.put(id, c);
    c.start();
  }
}
