package io.github.vertxbeanstalkd.store;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A list of longs that only grows, off the GC heap: the first block doubles from a few dozen
 * longs up to {@link LongArray}'s block size, then whole blocks are added, so growing never copies
 * more than one block. {@link #close()} frees the memory at once.
 */
public final class LongList {
  private static final int MIN_FIRST_LONGS = 32;
  private static final int BLOCK_LONGS_LOG2 = 13;
  /** Longs in a full block: 8K, 64 KiB. */
  private static final int BLOCK_LONGS = 1 << BLOCK_LONGS_LOG2;
  private static final int BLOCK_MASK = BLOCK_LONGS - 1;
  private final DirectMemory memory;
  private ByteBuffer[] blocks = new ByteBuffer[1];
  private int blockCount = 1;
  private int size;

  public LongList(DirectMemory memory) {
    this.memory = memory;
    blocks[0] = memory.allocateOverLimit(MIN_FIRST_LONGS * 8);
  }

  public int size() {
    return size;
  }

  public long get(int i) {
    if (i < 0 || i >= size) {
      throw new IndexOutOfBoundsException("index " + i + ", size " + size);
    }
    return blocks[i >>> BLOCK_LONGS_LOG2].getLong((i & BLOCK_MASK) << 3);
  }

  public void add(long value) {
    int block = size >>> BLOCK_LONGS_LOG2;
    int at = (size & BLOCK_MASK) << 3;
    if (block == 0 && at == blocks[0].capacity()) {
      ByteBuffer bigger = memory.allocateOverLimit(blocks[0].capacity() * 2);
      bigger.put(0, blocks[0], 0, blocks[0].capacity());
      memory.free(blocks[0]);
      blocks[0] = bigger;
    } else if (block == blockCount) {
      if (blockCount == blocks.length) {
        blocks = Arrays.copyOf(blocks, blockCount * 2);
      }
      blocks[blockCount++] = memory.allocateOverLimit(BLOCK_LONGS * 8);
    }
    blocks[block].putLong(at, value);
    size++;
  }

  /** Frees the memory; the list must not be used again. */
  public void close() {
    for (int i = 0; i < blockCount; i++) {
      if (blocks[i] != null) {
        memory.free(blocks[i]);
        blocks[i] = null;
      }
    }
  }
}
