package io.github.vertxbeanstalkd.server;

import io.netty.channel.ChannelOption;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.vertx.core.internal.net.NetSocketInternal;
import io.vertx.core.net.NetSocket;

/**
 * Lets a connection see its client shut down the sending side while the socket stays open for
 * replies. BEHAVIOURS.md 1 needs it (a reserve blocked at that moment answers TIMED_OUT before the
 * close), and Vert.x 5 core has no public API for it, so this one class reaches into the Netty
 * channel through {@link NetSocketInternal}; everything else uses public APIs only.
 */
final class HalfClose {
  private HalfClose() {}

  /** Keeps the socket writable after the client's FIN and calls {@code onInputShutdown} then. */
  static void watch(NetSocket socket, Runnable onInputShutdown) {
    if (socket instanceof NetSocketInternal internal) {
      internal.channelHandlerContext().channel().config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
      internal.eventHandler(event -> {
        if (event instanceof ChannelInputShutdownEvent) {
          onInputShutdown.run();
        }
      });
    }
  }
}
