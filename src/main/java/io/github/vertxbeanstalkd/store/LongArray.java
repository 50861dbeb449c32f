package io.github.vertxbeanstalkd.store;

import java.nio.ByteBuffer;

/**
 * A fixed number of longs off the GC heap, zeroed, in blocks of {@link #BLOCK_LONGS} (one block
 * for a small array): a table of millions of entries costs the collector nothing and never needs
 * one contiguous region. {@link #close()} frees the memory at once.
 */
public final class LongArray {
  private static final int BLOCK_LONGS_LOG2 = 16;
  /** Longs in a full block: 64K, 512 KiB. */
  static final int BLOCK_LONGS = 1 << BLOCK_LONGS_LOG2;
  private static final int BLOCK_MASK = BLOCK_LONGS - 1;
  private final DirectMemory memory;
  private final ByteBuffer[] blocks;
  private final long length;

  public LongArray(DirectMemory memory, long length) {
    if (length <= 0) {
      throw new IllegalArgumentException("length " + length);
    }
    this.memory = memory;
    this.length = length;
    int count = (int) ((length + BLOCK_MASK) >>> BLOCK_LONGS_LOG2);
    blocks = new ByteBuffer[count];
    try {
      for (int i = 0; i < count; i++) {
        long longs = Math.min(BLOCK_LONGS, length - ((long) i << BLOCK_LONGS_LOG2));
        blocks[i] = memory.allocateOverLimit((int) (longs * 8));
      }
    } catch (OutOfMemoryError e) {
      close();
      throw e;
    }
  }

  public long length() {
    return length;
  }

  public long get(long i) {
    return blocks[(int) (i >>> BLOCK_LONGS_LOG2)].getLong(((int) i & BLOCK_MASK) << 3);
  }

  public void set(long i, long value) {
    blocks[(int) (i >>> BLOCK_LONGS_LOG2)].putLong(((int) i & BLOCK_MASK) << 3, value);
  }

  /** Frees the memory; the array must not be used again. */
  public void close() {
    for (int i = 0; i < blocks.length; i++) {
      if (blocks[i] != null) {
        memory.free(blocks[i]);
        blocks[i] = null;
      }
    }
  }
}
