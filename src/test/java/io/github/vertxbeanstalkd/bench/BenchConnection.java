package io.github.vertxbeanstalkd.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.function.IntConsumer;

/**
 * One non-blocking client socket: preallocated direct buffers in and out, replies cut from the
 * input in place, and one send timestamp per command in flight (replies come back in order, so a
 * ring of timestamps gives each reply its command's latency). Nothing here allocates per command.
 */
final class BenchConnection {
  private static final int MIN_BUFFER_BYTES = 64 * 1024;

  private final SocketChannel channel;
  private final SelectorLoop loop;
  private final SelectionKey key;
  private final ByteBuffer out;
  private final ByteBuffer in;
  private final long[] sentAtNanos;
  private final byte[] sentTags;
  private final byte[] digits = new byte[20];
  private long sentCount;
  private long answeredCount;
  private boolean isDirty;
  private boolean isWaitingForWritable;

  /** The reply being handled: valid only inside {@link ReplyHandler#onReply}. */
  private int lineStart;
  private int lineEnd;
  private long replyNumber;
  private int bodyStart;
  private long replySentAtNanos;
  private byte replyTag;

  /** Role data for the phase that drives this connection. */
  int role;
  long counter;

  /**
   * @param localPorts told the local port of the connection before it connects (bound first, so
   *     that a server can know it from the first byte), or null
   */
  BenchConnection(SelectorLoop loop, ServerAddress address, int bodyBytes, int maxInFlight,
      IntConsumer localPorts) throws IOException {
    this.loop = loop;
    this.channel = SocketChannel.open();
    try {
      channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
      if (localPorts != null) {
        // This side closes first, so its port stays in TIME_WAIT for a minute; with SO_REUSEADDR
        // that does not stop a listener from binding the same port (a server whose configured port
        // is in the ephemeral range, opening right after the rehearsal that used these).
        channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        channel.bind(new InetSocketAddress(address.host(), 0));
        localPorts.accept(((InetSocketAddress) channel.getLocalAddress()).getPort());
      }
      channel.connect(new InetSocketAddress(address.host(), address.port()));
      channel.configureBlocking(false);
    } catch (IOException e) {
      channel.close();
      throw e;
    }
    int commandBytes = bodyBytes + 64;
    this.out =
        ByteBuffer.allocateDirect(Math.max(MIN_BUFFER_BYTES, 2 * maxInFlight * commandBytes));
    this.in = ByteBuffer.allocateDirect(Math.max(MIN_BUFFER_BYTES, 4 * commandBytes));
    this.sentAtNanos = new long[Integer.highestOneBit(Math.max(64, 4 * maxInFlight)) * 2];
    this.sentTags = new byte[sentAtNanos.length];
    this.key = loop.register(channel, this);
  }

  void send(byte[] command, byte tag, long nowNanos) {
    out.put(command);
    sent(tag, nowNanos);
  }

  /** A put whose body carries {@code nowNanos} as 8 bytes at {@code timestampOffset}, if >= 0. */
  void sendPut(byte[] command, int timestampOffset, long nowNanos) {
    int start = out.position();
    out.put(command);
    if (timestampOffset >= 0) {
      out.putLong(start + timestampOffset, nowNanos);
    }
    sent(Commands.TAG_PUT, nowNanos);
  }

  /** {@code prefix} (e.g. "delete "), the decimal id, CRLF. */
  void sendWithId(byte[] prefix, long id, byte tag, long nowNanos) {
    out.put(prefix);
    int n = 0;
    long rest = id;
    do {
      digits[n++] = (byte) ('0' + rest % 10);
      rest /= 10;
    } while (rest > 0);
    while (n > 0) {
      out.put(digits[--n]);
    }
    out.put((byte) '\r').put((byte) '\n');
    sent(tag, nowNanos);
  }

  private void sent(byte tag, long nowNanos) {
    if (sentCount - answeredCount >= sentAtNanos.length) {
      throw new IllegalStateException("more commands in flight than the ring holds");
    }
    int slot = (int) (sentCount++ & (sentAtNanos.length - 1));
    sentAtNanos[slot] = nowNanos;
    sentTags[slot] = tag;
    if (!isDirty) {
      isDirty = true;
      loop.markDirty(this);
    }
  }

  /** Writes what the socket takes now; waits for OP_WRITE for the rest. */
  void flush() throws IOException {
    isDirty = false;
    out.flip();
    channel.write(out);
    boolean hasRest = out.hasRemaining();
    out.compact();
    if (hasRest != isWaitingForWritable) {
      isWaitingForWritable = hasRest;
      key.interestOps(
          hasRest ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
    }
  }

  /** Reads what has arrived and hands every complete reply to the handler; -1 at end of stream. */
  int readReplies(ReplyHandler handler, long nowNanos) throws IOException {
    int read = channel.read(in);
    in.flip();
    int pos = in.position();
    int limit = in.limit();
    while (true) {
      int end = indexOfCrlf(pos, limit);
      if (end < 0) {
        break;
      }
      ReplyKind kind = ReplyKind.of(in, pos, end);
      int next = end + 2;
      replyNumber = parseNumber(pos, end, 1);
      if (kind == ReplyKind.RESERVED) {
        long bodyBytes = parseNumber(pos, end, 2);
        if (bodyBytes < 0 || next - pos + bodyBytes + 2 > in.capacity()) {
          throw new IOException("RESERVED body of " + bodyBytes + " bytes does not fit the buffer");
        }
        if (next + bodyBytes + 2 > limit) {
          break;
        }
        bodyStart = next;
        next += (int) bodyBytes + 2;
      }
      lineStart = pos;
      lineEnd = end;
      if (answeredCount < sentCount) {
        int slot = (int) (answeredCount++ & (sentAtNanos.length - 1));
        replySentAtNanos = sentAtNanos[slot];
        replyTag = sentTags[slot];
      } else {
        replySentAtNanos = -1;
        replyTag = Commands.TAG_NONE;
      }
      pos = next;
      handler.onReply(this, kind, nowNanos);
    }
    in.position(pos);
    in.compact();
    return read;
  }

  /** The reply's first number (id or count); -1 if it has none. */
  long replyNumber() {
    return replyNumber;
  }

  /** When the command this reply answers was sent; -1 for a reply nobody asked for. */
  long replySentAtNanos() {
    return replySentAtNanos;
  }

  /** Which command ({@code Commands.TAG_*}) this reply answers. */
  byte replyTag() {
    return replyTag;
  }

  /** 8 bytes of the reserved job's body, big-endian, at {@code offset}. */
  long replyBodyLong(int offset) {
    return in.getLong(bodyStart + offset);
  }

  /** The reply line as text, for error reports only (it allocates). */
  String replyLine() {
    byte[] bytes = new byte[Math.min(lineEnd - lineStart, 200)];
    in.get(lineStart, bytes);
    return new String(bytes, StandardCharsets.US_ASCII);
  }

  void close() {
    key.cancel();
    try {
      channel.close();
    } catch (IOException ignored) {
      // closing after a failure: nothing more to report
    }
  }

  private int indexOfCrlf(int from, int limit) {
    for (int i = from + 1; i < limit; i++) {
      if (in.get(i) == '\n' && in.get(i - 1) == '\r') {
        return i - 1;
      }
    }
    return -1;
  }

  /** The {@code index}-th space-separated decimal field of the line (0 is the word), or -1. */
  private long parseNumber(int start, int end, int index) {
    int i = start;
    for (int field = 0; field < index; field++) {
      while (i < end && in.get(i) != ' ') {
        i++;
      }
      if (i == end) {
        return -1;
      }
      i++;
    }
    long value = 0;
    int digitsSeen = 0;
    for (; i < end && in.get(i) != ' '; i++, digitsSeen++) {
      int d = in.get(i) - '0';
      if (d < 0 || d > 9) {
        return -1;
      }
      value = value * 10 + d;
    }
    return digitsSeen == 0 ? -1 : value;
  }
}
