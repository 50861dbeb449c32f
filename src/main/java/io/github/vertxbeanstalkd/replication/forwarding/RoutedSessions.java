package io.github.vertxbeanstalkd.replication.forwarding;

import io.github.vertxbeanstalkd.bus.ConnectionSession;
import io.github.vertxbeanstalkd.bus.EngineClient;
import io.github.vertxbeanstalkd.bus.EngineReply;
import io.github.vertxbeanstalkd.bus.EngineSession;
import io.github.vertxbeanstalkd.bus.SessionHost;
import io.github.vertxbeanstalkd.bus.SessionKey;
import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.Reply;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sessions of one TCP front instance of a replicated node: each connection's runs on the
 * group's primary as {@link PrimaryRoute} names it, on this node's engine while this node is the
 * primary, otherwise forwarded over the cluster's event bus (frames of {@link ForwardFrames}); when
 * the primary changes, every connection moves to the new one. What the connections send during one
 * event-loop turn leaves as one message. Runs on the front's context only.
 */
final class RoutedSessions implements SessionHost, Link.Opener, HostClock {
  private static final Logger log = LoggerFactory.getLogger(RoutedSessions.class);
  /** How often detached connections are looked at. */
  private static final long TICK_MILLIS = 1000;
  /** Without a primary for this long, commands waiting for one answer INTERNAL_ERROR (a reserve waits to its deadline). */
  static final long NO_PRIMARY_NANOS = 10_000_000_000L;

  private final Vertx vertx;
  private final EngineClient local;
  private final PrimaryRoute route;
  private final String replyAddress;
  private final String nodeId;
  /** Commands sent to a primary on another node whose replies have not come, shared by the node's hosts. */
  private final LongAdder forwardedAwaitingReply;
  private final LinkedHashSet<RoutedConnection> connections = new LinkedHashSet<>();
  private final HashMap<Long, RemoteLink> links = new HashMap<>();
  private final Map<String, Buffer> outgoing = new LinkedHashMap<>();
  private Context context;
  private MessageConsumer<Buffer> replies;
  private Runnable stopListening = () -> {};
  private PrimaryRoute.Primary primary;
  private long noPrimarySinceNanos = System.nanoTime();
  private long nextConnectionId = 1;
  private long nextLinkId = 1;
  private boolean isFlushScheduled;
  private long tickTimer = -1;

  private RoutedSessions(Vertx vertx, EngineClient local, PrimaryRoute route, String replyAddress, String nodeId,
      LongAdder forwardedAwaitingReply) {
    this.vertx = vertx;
    this.local = local;
    this.route = route;
    this.replyAddress = replyAddress;
    this.nodeId = nodeId;
    this.forwardedAwaitingReply = forwardedAwaitingReply;
  }

  /**
   * A host on the calling context, ready once its reply address is registered in the cluster.
   *
   * @param replyAddress where primaries send this host's replies, unique in the cluster
   * @param nodeId this node's cluster id: a primary ends the sessions of a node that leaves
   * @param forwardedAwaitingReply counts the commands this host's connections have sent to a primary on
   *     another node whose replies have not come
   */
  static Future<SessionHost> start(Vertx vertx, EngineClient local, PrimaryRoute route, String replyAddress,
      String nodeId, LongAdder forwardedAwaitingReply) {
    RoutedSessions host = new RoutedSessions(vertx, local, route, replyAddress, nodeId, forwardedAwaitingReply);
    host.context = vertx.getOrCreateContext();
    host.replies = vertx.eventBus().consumer(replyAddress, host::onReplies);
    return host.replies.completion().map(v -> {
      host.primary = route.current();
      host.stopListening = route.listen(p -> host.context.runOnContext(x -> host.onPrimary(route.current())));
      host.tickTimer = vertx.setPeriodic(TICK_MILLIS, id -> host.tick());
      return host;
    });
  }

  @Override
  public ConnectionSession open(EngineClient.Listener listener) {
    RoutedConnection c = new RoutedConnection(this, this, listener, new SessionKey(replyAddress, nextConnectionId++));
    connections.add(c);
    if (primary != null) {
      c.attach(primary);
    }
    return c;
  }

  @Override
  public void connectionRefused() {
    local.connectionRefused();
  }

  /** Closes the sessions still open (on the host's context, wherever the front's stop runs). */
  @Override
  public Future<Void> stop() {
    Promise<Void> closed = Promise.promise();
    context.runOnContext(v -> {
      stopListening.run();
      vertx.cancelTimer(tickTimer);
      for (RoutedConnection c : new ArrayList<>(connections)) {
        c.close();
      }
      flush();
      replies.unregister().onComplete(closed);
    });
    return closed.future();
  }

  @Override
  public void closed(RoutedConnection c) {
    connections.remove(c);
  }

  @Override
  public Link open(PrimaryRoute.Primary primary, RoutedConnection connection) {
    if (primary.isLocal()) {
      return new LocalLink(primary, connection);
    }
    RemoteLink link = new RemoteLink(primary, nextLinkId++, connection);
    links.put(link.id, link);
    ForwardFrames.control(out(primary.address()), ForwardFrames.OPEN, link.id);
    return link;
  }

  @Override
  public long nanos() {
    return System.nanoTime();
  }

  @Override
  public long setTimer(long delayNanos, Runnable action) {
    // Rounded up: the action may look at the clock and expect its time to have come.
    return vertx.setTimer(Math.max(1, (delayNanos + 999_999) / 1_000_000), id -> action.run());
  }

  @Override
  public void cancelTimer(long timerId) {
    vertx.cancelTimer(timerId);
  }

  private void onPrimary(PrimaryRoute.Primary now) {
    if (now == null ? primary == null : now.equals(primary)) {
      return;
    }
    log.info("forwarding: {} TCP connection(s) move to {}", connections.size(),
        now == null ? "no primary (none known)" : now.isLocal() ? "this node, primary of term " + now.term()
            : "the primary of term " + now.term() + " (node " + now.nodeId() + ")");
    primary = now;
    if (now == null) {
      noPrimarySinceNanos = System.nanoTime();
    }
    for (RoutedConnection c : new ArrayList<>(connections)) {
      c.rerouteTo(now);
    }
  }

  private void tick() {
    if (primary == null) {
      if (System.nanoTime() - noPrimarySinceNanos > NO_PRIMARY_NANOS) {
        new ArrayList<>(connections).forEach(RoutedConnection::giveUpUnsent);
      }
      return;
    }
    // A connection whose session the primary ended gets a new one.
    for (RoutedConnection c : new ArrayList<>(connections)) {
      if (c.isDetached()) {
        c.attach(primary);
      }
    }
  }

  private void onReplies(Message<Buffer> message) {
    try {
      WireReader in = ForwardFrames.read(message.body());
      while (in.hasMore()) {
        byte frame = in.readByte();
        long id = in.readLong();
        if (frame != ForwardFrames.REPLIES) {
          throw new IllegalArgumentException("unknown frame " + frame + " from a primary");
        }
        int flags = in.readByte();
        int count = in.readInt();
        List<Reply> replies = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
          replies.add(new Reply.Encoded(in.readBytes()));
        }
        boolean hasEnded = (flags & ForwardFrames.HAS_ENDED) != 0;
        RemoteLink link = hasEnded ? links.remove(id) : links.get(id);
        if (link != null) {
          link.connection.onReply(link, new EngineReply(link.connection.key(), replies,
              (flags & ForwardFrames.IS_COMPLETE) != 0, (flags & ForwardFrames.HOLDS_JOBS) != 0, hasEnded));
        }
      }
    } catch (RuntimeException e) {
      log.error("forwarding: a primary's replies could not be read", e);
    }
  }

  private Buffer out(String address) {
    if (!isFlushScheduled) {
      isFlushScheduled = true;
      context.runOnContext(v -> flush());
    }
    return outgoing.computeIfAbsent(address, a -> ForwardFrames.toPrimary(replyAddress, nodeId));
  }

  private void flush() {
    isFlushScheduled = false;
    outgoing.forEach((address, frames) -> vertx.eventBus().send(address, frames));
    outgoing.clear();
  }

  /** A session on this node's engine, while it is the primary. */
  private final class LocalLink implements Link {
    private final PrimaryRoute.Primary primary;
    private final EngineSession session;

    LocalLink(PrimaryRoute.Primary primary, RoutedConnection connection) {
      this.primary = primary;
      this.session = local.open(true, reply -> connection.onReply(this, reply));
    }

    @Override
    public PrimaryRoute.Primary primary() {
      return primary;
    }

    @Override
    public void submit(List<Command> commands) {
      session.submit(commands);
    }

    @Override
    public void endInput() {
      session.endInput();
    }

    @Override
    public void awaitingReplies(int delta) {
      // This node's engine runs them: nothing is forwarded.
    }

    @Override
    public void close() {
      session.close(false);
    }
  }

  /** A session on another node, the primary, reached through its forwarding address. */
  private final class RemoteLink implements Link {
    private final PrimaryRoute.Primary primary;
    private final long id;
    private final RoutedConnection connection;

    RemoteLink(PrimaryRoute.Primary primary, long id, RoutedConnection connection) {
      this.primary = primary;
      this.id = id;
      this.connection = connection;
    }

    @Override
    public PrimaryRoute.Primary primary() {
      return primary;
    }

    @Override
    public void submit(List<Command> commands) {
      ForwardFrames.submit(out(primary.address()), id, commands);
    }

    @Override
    public void endInput() {
      ForwardFrames.control(out(primary.address()), ForwardFrames.END_INPUT, id);
    }

    @Override
    public void awaitingReplies(int delta) {
      forwardedAwaitingReply.add(delta);
    }

    @Override
    public void close() {
      links.remove(id);
      ForwardFrames.control(out(primary.address()), ForwardFrames.CLOSE, id);
    }
  }
}
