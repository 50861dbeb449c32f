package io.github.vertxbeanstalkd.tcp;

import io.netty.channel.ChannelOption;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.ssl.SslCloseCompletionEvent;
import io.vertx.core.internal.net.NetSocketInternal;
import io.vertx.core.net.NetSocket;

/**
 * Lets a connection see its client shut down the sending side while the socket stays open for
 * replies. BEHAVIOURS.md 1 needs it (a reserve blocked at that moment answers TIMED_OUT before the
 * close), and Vert.x 5 core has no public API for it, so this one class reaches into the Netty
 * channel through {@link NetSocketInternal}; everything else uses public APIs only.
 *
 * @see <a href="{@docRoot}/../spec/BEHAVIOURS.html">BEHAVIOURS.md</a>
 */
final class HalfClose {
  private HalfClose() {}

  /**
   * Keeps the socket writable after the client's FIN, or its TLS close_notify, and calls
   * {@code onInputShutdown} then.
   */
  static void watch(NetSocket socket, Runnable onInputShutdown) {
    if (socket instanceof NetSocketInternal internal) {
      internal.channelHandlerContext().channel().config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
      internal.eventHandler(event -> {
        // Over TLS the client's end may come as close_notify without a FIN (stunnel, or any client
        // that waits for our close_notify in return): the same end of input, and it must close too.
        if (event instanceof ChannelInputShutdownEvent || event instanceof SslCloseCompletionEvent) {
          onInputShutdown.run();
        }
      });
    }
  }
}
