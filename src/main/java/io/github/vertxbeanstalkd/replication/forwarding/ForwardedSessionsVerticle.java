package io.github.vertxbeanstalkd.replication.forwarding;

import io.github.vertxbeanstalkd.cluster.ClusterNodes;
import io.github.vertxbeanstalkd.bus.EngineAddress;
import io.github.vertxbeanstalkd.bus.EngineClient;
import io.github.vertxbeanstalkd.bus.EngineReply;
import io.github.vertxbeanstalkd.bus.EngineSession;
import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.Reply;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The primary's side of forwarding: on the term's forwarding address (cluster-wide, registered only
 * while this node is the primary), each connection a standby forwards gets an engine session of its
 * own, opened as a connection so that stats count it; its commands run there, and its replies go
 * back encoded, per standby, one message per event-loop turn. A forwarded session ends when its
 * connection closes, when its standby leaves the cluster, and when this node stops being the
 * primary (the standby then hears that it ended).
 */
public final class ForwardedSessionsVerticle extends VerticleBase {
  private static final Logger log = LoggerFactory.getLogger(ForwardedSessionsVerticle.class);
  /** How often the cluster's membership is looked at; a departed standby's jobs return within this. */
  static final long MEMBERSHIP_POLL_MILLIS = 1000;

  /** A forwarded connection: the standby's reply address and its number for it. */
  private record Key(String replyAddress, long connection) {}

  private record Forwarded(Key key, String nodeId, EngineSession session) {}

  private final EngineAddress engineAddress;
  private final String address;
  private final Map<Key, Forwarded> sessions = new HashMap<>();
  private final Map<String, Buffer> outgoing = new LinkedHashMap<>();
  private EngineClient engine;
  private MessageConsumer<Buffer> consumer;
  private ClusterNodes cluster;
  private long membershipTimer = -1;
  private boolean isFlushScheduled;

  /** @param address the forwarding address of this node's term, as {@link PrimaryRoute.Primary#address()} names it */
  public ForwardedSessionsVerticle(EngineAddress engineAddress, String address) {
    this.engineAddress = engineAddress;
    this.address = address;
  }

  @Override
  public Future<?> start() {
    return EngineClient.start(vertx, engineAddress).compose(client -> {
      engine = client;
      consumer = vertx.eventBus().consumer(address, this::onMessage);
      cluster = ClusterNodes.of(vertx);
      if (cluster != null) {
        membershipTimer = vertx.setPeriodic(MEMBERSHIP_POLL_MILLIS, id -> endSessionsOfDepartedNodes());
      }
      return consumer.completion();
    });
  }

  /** Ends every forwarded session, and tells each standby so that its connections move on. */
  @Override
  public Future<?> stop() {
    vertx.cancelTimer(membershipTimer);
    for (Forwarded f : new ArrayList<>(sessions.values())) {
      end(f);
    }
    flush();
    return consumer.unregister().compose(v -> engine.stop());
  }

  private void onMessage(Message<Buffer> message) {
    try {
      WireReader in = ForwardFrames.read(message.body());
      String replyAddress = in.readString();
      String nodeId = in.readString();
      while (in.hasMore()) {
        byte frame = in.readByte();
        Key key = new Key(replyAddress, in.readLong());
        switch (frame) {
          case ForwardFrames.OPEN -> open(key, nodeId);
          case ForwardFrames.SUBMIT -> submit(key, in);
          case ForwardFrames.END_INPUT -> {
            Forwarded f = sessions.get(key);
            if (f != null) {
              f.session().endInput();
            }
          }
          case ForwardFrames.CLOSE -> {
            Forwarded f = sessions.remove(key);
            if (f != null) {
              f.session().close(false);
            }
          }
          default -> throw new IllegalArgumentException("unknown frame " + frame + " from a standby");
        }
      }
    } catch (RuntimeException e) {
      log.error("forwarding: a standby's message could not be read", e);
    }
  }

  private void open(Key key, String nodeId) {
    if (sessions.containsKey(key)) {
      return;
    }
    Forwarded[] self = new Forwarded[1];
    EngineSession session = engine.open(true, reply -> onReply(self[0], reply));
    self[0] = new Forwarded(key, nodeId, session);
    sessions.put(key, self[0]);
  }

  private void submit(Key key, WireReader in) {
    int count = in.readInt();
    List<Command> commands = new ArrayList<>(count);
    int answered = 0;
    for (int i = 0; i < count; i++) {
      Command c = ForwardedCommands.read(in);
      commands.add(c);
      if (!(c instanceof Command.PutLine)) {
        answered++;
      }
    }
    Forwarded f = sessions.get(key);
    if (f != null) {
      f.session().submit(commands);
    } else {
      // Not open here (this node's session ended it): each command answers INTERNAL_ERROR, and the
      // standby hears that the session ended.
      List<Reply> failed = Collections.nCopies(answered, Reply.Word.INTERNAL_ERROR);
      ForwardFrames.replies(out(key.replyAddress()), key.connection(), new EngineReply(null, failed, true, false, true));
    }
  }

  private void onReply(Forwarded f, EngineReply reply) {
    if (reply.hasEnded()) {
      sessions.remove(f.key(), f);
    }
    ForwardFrames.replies(out(f.key().replyAddress()), f.key().connection(), reply);
    // The replies are the frame's bytes now: pooled bodies can hold the next reserves'.
    for (int i = 0; i < reply.replyCount(); i++) {
      reply.reply(i).release();
    }
  }

  /** Ends {@code f} here and tells its standby. */
  private void end(Forwarded f) {
    sessions.remove(f.key());
    f.session().close(false);
    ForwardFrames.replies(out(f.key().replyAddress()), f.key().connection(),
        new EngineReply(null, List.of(), false, false, true));
  }

  private void endSessionsOfDepartedNodes() {
    Set<String> nodes = new HashSet<>(cluster.nodeIds());
    Map<String, Integer> ended = new LinkedHashMap<>();
    for (Forwarded f : new ArrayList<>(sessions.values())) {
      if (!nodes.contains(f.nodeId())) {
        sessions.remove(f.key());
        f.session().close(false);
        ended.merge(f.nodeId(), 1, Integer::sum);
      }
    }
    ended.forEach((node, count) -> log.info("forwarding: node {} left the cluster: its {} forwarded connection(s) "
        + "end here and their jobs return to ready", node, count));
  }

  private Buffer out(String replyAddress) {
    if (!isFlushScheduled) {
      isFlushScheduled = true;
      context.runOnContext(v -> flush());
    }
    return outgoing.computeIfAbsent(replyAddress, a -> ForwardFrames.toStandby());
  }

  private void flush() {
    isFlushScheduled = false;
    outgoing.forEach((replyAddress, frames) -> vertx.eventBus().send(replyAddress, frames));
    outgoing.clear();
  }
}
