package io.github.vertxbeanstalkd.replication.forwarding;

import io.github.vertxbeanstalkd.bus.EngineReply;
import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.Reply;
import io.github.vertxbeanstalkd.protocol.ReplyEncoder;
import io.vertx.core.buffer.Buffer;
import java.util.List;

/**
 * The messages of forwarded connections, one event-bus {@link Buffer} per event-loop turn and
 * destination. A standby's message to the primary is {@code VERSION, its reply address, its
 * cluster node id}, then frames of its connections: {@code OPEN id}, {@code SUBMIT id count
 * commands} ({@link ForwardedCommands}), {@code END_INPUT id}, {@code CLOSE id}. The primary's
 * message back is {@code VERSION}, then {@code REPLIES id flags count (length bytes)*} frames, each
 * reply as {@link ReplyEncoder} wrote it, so the standby writes the primary's bytes verbatim.
 * Numbers are big-endian; a connection's id is the standby's, unique per reply address.
 *
 * <p>To change this format (it crosses JVMs, which may run different builds during an upgrade):
 * raise {@link #VERSION}, which a node checks on every message; never reuse a frame type.
 */
final class ForwardFrames {
  static final byte VERSION = 1;

  static final byte OPEN = 1;
  static final byte SUBMIT = 2;
  static final byte END_INPUT = 3;
  static final byte CLOSE = 4;
  static final byte REPLIES = 5;

  static final int IS_COMPLETE = 1;
  static final int HOLDS_JOBS = 2;
  static final int HAS_ENDED = 4;

  private ForwardFrames() {}

  /** A new message from a standby: frames follow. */
  static Buffer toPrimary(String replyAddress, String nodeId) {
    Buffer out = Buffer.buffer(256).appendByte(VERSION);
    WireReader.writeString(out, replyAddress);
    WireReader.writeString(out, nodeId);
    return out;
  }

  /** A new message from the primary: frames follow. */
  static Buffer toStandby() {
    return Buffer.buffer(256).appendByte(VERSION);
  }

  static void control(Buffer out, byte frame, long connection) {
    out.appendByte(frame).appendLong(connection);
  }

  static void submit(Buffer out, long connection, List<Command> commands) {
    out.appendByte(SUBMIT).appendLong(connection).appendInt(commands.size());
    for (Command c : commands) {
      ForwardedCommands.write(c, out);
    }
  }

  static void replies(Buffer out, long connection, EngineReply reply) {
    int flags = (reply.isComplete() ? IS_COMPLETE : 0) | (reply.holdsJobs() ? HOLDS_JOBS : 0)
        | (reply.hasEnded() ? HAS_ENDED : 0);
    out.appendByte(REPLIES).appendLong(connection).appendByte((byte) flags).appendInt(reply.replies().size());
    for (Reply r : reply.replies()) {
      int at = out.length();
      out.appendInt(0);
      ReplyEncoder.encode(r, out);
      out.setInt(at, out.length() - at - 4);
    }
  }

  /** Checks a message's version and returns a reader past it. */
  static WireReader read(Buffer message) {
    WireReader in = new WireReader(message);
    byte version = in.readByte();
    if (version != VERSION) {
      throw new IllegalArgumentException("forwarded message of version " + version + ", this node reads " + VERSION
          + ": every node of a group must run a build that forwards alike");
    }
    return in;
  }
}
