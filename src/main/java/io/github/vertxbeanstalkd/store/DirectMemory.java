package io.github.vertxbeanstalkd.store;

import io.netty.util.internal.PlatformDependent;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The job store's off-heap memory: every block it takes and gives back, counted to the byte. Blocks
 * are freed at once (not when the collector finds them), so a drained store gives memory back to
 * the operating system. One thread only.
 */
public final class DirectMemory {
  private long reservedBytes;
  private long blocks;

  /** A zeroed block of {@code bytes}, in native byte order; throws {@link OutOfMemoryError} when none is left. */
  public ByteBuffer allocate(int bytes) {
    ByteBuffer block = ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());
    reservedBytes += bytes;
    blocks++;
    return block;
  }

  /** Gives the block back now; it must not be used again. */
  public void free(ByteBuffer block) {
    reservedBytes -= block.capacity();
    blocks--;
    PlatformDependent.freeDirectBuffer(block);
  }

  /** Bytes held in blocks now. */
  public long reservedBytes() {
    return reservedBytes;
  }

  /** Blocks held now. */
  public long blocks() {
    return blocks;
  }
}
