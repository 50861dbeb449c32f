package io.github.vertxbeanstalkd.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.util.UncheckedBooleanSupplier;

/**
 * How much one read takes from a socket: Netty's adaptive sizes (up to 64 KiB), but at most
 * {@link #PRESSED_READ_BYTES} while the front's {@link ReadAhead} is past half its limit. A connection
 * that has sent a batch keeps what the read brought beyond it, so when thousands of clients
 * pipeline without reading, a read's size is what each holds: 3,000 of them at 64 KiB ended a
 * server with {@code -Xmx128m}. One per front, read on its event loop, which is its connections'
 * too.
 */
final class PressedReads implements RecvByteBufAllocator {
  static final int PRESSED_READ_BYTES = ChunkPool.CHUNK_BYTES;

  /**
   * Up to 16 reads a wake-up, as Netty gives a socket channel by default: the allocator's own
   * default is one, which halved the rate of 64 KiB puts.
   */
  private static final int READS_PER_WAKEUP = 16;

  private final AdaptiveRecvByteBufAllocator adaptive = new AdaptiveRecvByteBufAllocator();
  private final ReadAhead readAhead;

  PressedReads(ReadAhead readAhead) {
    this.readAhead = readAhead;
    adaptive.maxMessagesPerRead(READS_PER_WAKEUP);
  }

  @Override
  public Handle newHandle() {
    return new Capped((ExtendedHandle) adaptive.newHandle());
  }

  /** Netty's handle, but for the size it allocates; epoll needs an {@link ExtendedHandle}. */
  private final class Capped extends DelegatingHandle implements ExtendedHandle {
    Capped(ExtendedHandle sizes) {
      super(sizes);
    }

    @Override
    public ByteBuf allocate(ByteBufAllocator alloc) {
      return alloc.ioBuffer(guess());
    }

    @Override
    public int guess() {
      int bytes = delegate().guess();
      return readAhead.isPressed() ? Math.min(bytes, PRESSED_READ_BYTES) : bytes;
    }

    @Override
    public boolean continueReading(UncheckedBooleanSupplier maybeMoreDataSupplier) {
      return ((ExtendedHandle) delegate()).continueReading(maybeMoreDataSupplier);
    }
  }
}
