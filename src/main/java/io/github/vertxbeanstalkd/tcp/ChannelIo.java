package io.github.vertxbeanstalkd.tcp;

import io.github.vertxbeanstalkd.protocol.ReplyEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.Context;
import io.vertx.core.internal.net.NetSocketInternal;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.impl.VertxConnection;

/**
 * One connection's bytes at the level of its Netty channel: reads arrive as the channel's own
 * pooled buffers, and replies leave as pooled direct buffers encoded in place, with no future per
 * write. Through the public NetSocket API each read is copied into a new heap Buffer and each
 * write gets a promise, a queue entry, a slice and a copy into direct memory (measured: about
 * 650 bytes of garbage per command at put c=50), so this one class reaches into the channel:
 * {@link NetSocketInternal#messageHandler} for the reads (Vert.x still counts their bytes), Vert.x's
 * own {@link VertxConnection#write(Object, boolean, io.netty.channel.ChannelPromise)} for the
 * writes (which counts theirs and flushes as NetSocket's writes do, bypassing only the queue for
 * writes from other threads, which never happen here), and a pipeline handler that reports when a
 * full channel can take more. Everything else about the socket (close, half-close, exceptions)
 * stays with {@link NetSocket}.
 *
 * <p>It is also the {@link ReplyEncoder.Out} replies are encoded into: {@link #begin} a buffer,
 * encode, {@link #send}.
 */
final class ChannelIo implements ReplyEncoder.Out {
  /** What the channel reports, on the connection's context. */
  interface Listener {
    /** Bytes arrived; {@code data} is released after the call, so they must be copied. */
    void onInput(ByteBuf data);

    /** The channel can take writes again after {@link #isWritable()} said no. */
    void onWritable();
  }

  private final VertxConnection connection;
  private final ChannelHandlerContext context;
  private ByteBuf out;

  private ChannelIo(NetSocketInternal socket, ChannelHandlerContext context) {
    this.connection = (VertxConnection) socket;
    this.context = context;
  }

  /** Takes over {@code socket}'s reads; call on its context, before anything is read. */
  static ChannelIo attach(NetSocket socket, Context vertxContext, Listener listener, PressedReads reads) {
    NetSocketInternal internal = (NetSocketInternal) socket;
    ChannelHandlerContext context = internal.channelHandlerContext();
    ChannelIo io = new ChannelIo(internal, context);
    context.channel().config().setRecvByteBufAllocator(reads);
    internal.messageHandler(msg -> {
      if (msg instanceof ByteBuf data) {
        try {
          listener.onInput(data);
        } finally {
          data.release();
        }
      } else {
        ReferenceCountUtil.release(msg);
      }
    });
    context.pipeline().addBefore("handler", "beanstalkd-writability", new ChannelInboundHandlerAdapter() {
      @Override
      public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
          vertxContext.runOnContext(v -> listener.onWritable());
        }
        ctx.fireChannelWritabilityChanged();
      }
    });
    return io;
  }

  /** The channel's outbound buffer is below its high-water mark. */
  boolean isWritable() {
    return context.channel().isWritable();
  }

  /** Bytes written to the channel and not yet taken by the socket. */
  long pendingWriteBytes() {
    ChannelOutboundBuffer pending = context.channel().unsafe().outboundBuffer();
    return pending == null ? 0 : pending.totalPendingWriteBytes();
  }

  /**
   * Closes the connection now with a reset, dropping what is queued for the client rather than
   * flushing it. A close through the pipeline (NetSocket's, or the channel's own) is Vert.x's
   * graceful one: it waits for the queued writes, which a client that does not read never takes.
   * Connections closed for what they held kept it so: 1,581 of them, closed during a flood of
   * 2,200 clients pipelining {@code peek} of a 64 KiB job, held 100 MiB of direct memory, and a
   * server with {@code -XX:MaxDirectMemorySize=224m} ended with OutOfMemoryError. The channel's
   * own close, below the pipeline, fails the queued writes and releases their buffers; Vert.x
   * hears of it as of any close.
   */
  void reset() {
    Channel channel = context.channel();
    channel.config().setOption(ChannelOption.SO_LINGER, 0);
    channel.unsafe().close(channel.voidPromise());
  }

  /** Stops reading from the socket (the kernel's buffers then fill and push back on the client). */
  void stopReading() {
    context.channel().config().setAutoRead(false);
  }

  void startReading() {
    context.channel().config().setAutoRead(true);
  }

  /** Starts a buffer of at least {@code capacity} bytes for the replies encoded next. */
  void begin(int capacity) {
    out = context.alloc().directBuffer(capacity);
  }

  /** Bytes encoded since {@link #begin}. */
  int written() {
    return out.writerIndex();
  }

  /** Writes and flushes what was encoded since {@link #begin}. */
  void send() {
    ByteBuf b = out;
    out = null;
    connection.write(b, false, context.voidPromise());
  }

  @Override
  public void writeByte(int b) {
    out.writeByte(b);
  }

  @Override
  public void writeBytes(byte[] bytes, int from, int length) {
    out.writeBytes(bytes, from, length);
  }
}
