package io.github.vertxbeanstalkd.server;

import io.github.vertxbeanstalkd.bus.ConnectionRef;
import io.github.vertxbeanstalkd.bus.EngineAddress;
import io.github.vertxbeanstalkd.bus.EngineReplies;
import io.github.vertxbeanstalkd.bus.EngineReply;
import io.github.vertxbeanstalkd.bus.EngineRequest;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.UUID;

/** Accepts beanstalkd clients over TCP and routes the engine's replies to their connections. */
public final class TcpServerVerticle extends VerticleBase {
  private final ServerConfig config;
  private final String replyAddress = EngineAddress.REPLIES_PREFIX + UUID.randomUUID();
  private final HashMap<Long, Connection> connections = new HashMap<>();
  private long nextLocalId = 1;
  private MessageConsumer<EngineReplies> replies;
  private List<EngineRequest> outgoing = new ArrayList<>();
  private boolean isFlushScheduled;
  private NetServer server;

  public TcpServerVerticle(ServerConfig config) {
    this.config = config;
  }

  @Override
  public Future<?> start() {
    replies = vertx.eventBus().localConsumer(replyAddress, msg -> {
      for (EngineReply reply : msg.body().replies()) {
        Connection c = connections.get(reply.localId());
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

  /** The bound port, useful when the configured port was 0. */
  public int actualPort() {
    return server.actualPort();
  }

  /**
   * Queues a request; what every connection queued during this event-loop turn goes to the
   * engine as one message once the turn's I/O is handled, in order.
   */
  private void toEngine(EngineRequest request) {
    outgoing.add(request);
    if (!isFlushScheduled) {
      isFlushScheduled = true;
      vertx.runOnContext(v -> {
        isFlushScheduled = false;
        List<EngineRequest> requests = outgoing;
        outgoing = new ArrayList<>();
        vertx.eventBus().send(EngineAddress.REQUESTS, new EngineRequest.Batch(requests));
      });
    }
  }

  private void accept(NetSocket socket) {
    long id = nextLocalId++;
    Connection c = new Connection(socket, new ConnectionRef(replyAddress, id), this::toEngine,
        config.maxJobSizeBytes(), () -> connections.remove(id));
    connections.put(id, c);
    c.start();
  }
}
