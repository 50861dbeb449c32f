package io.github.vertxbeanstalkd.store;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A binary min-heap of int slots whose positions are kept by the caller (in the slot's record), so
 * that any slot can be removed or re-keyed in O(log n). One int per slot off the heap: the collector
 * sees a few small objects whatever the heap holds, and memory outgrown or shrunk is freed at once
 * instead of lingering as garbage. Subclasses say how slots compare and where a slot's position
 * lives. {@link #close()} frees the memory.
 *
 * <p>The first {@link #BLOCK_SLOTS} slots live in a block that doubles and halves (a small heap,
 * such as an idle tube's, takes 64 bytes); past it, the heap adds and frees whole blocks of that
 * size, so that growing never copies the heap: copying a whole array of millions of slots, in a
 * new zeroed block, held the event loop for 30-70 ms at 5-10M queued jobs.
 */
public abstract class SlotHeap {
  public static final int NONE = -1;
  private static final int MIN_CAPACITY = 16;
  private static final int BLOCK_SLOTS_LOG2 = 16;
  /** Slots in a block: 64K, 256 KiB. */
  static final int BLOCK_SLOTS = 1 << BLOCK_SLOTS_LOG2;
  private static final int BLOCK_MASK = BLOCK_SLOTS - 1;
  private final DirectMemory memory;
  /** Block 0 holds {@code firstCapacity} slots; every other block {@link #BLOCK_SLOTS}. */
  private ByteBuffer[] blocks = new ByteBuffer[1];
  private int blockCount = 1;
  private int firstCapacity = MIN_CAPACITY;
  private int size;

  protected SlotHeap(DirectMemory memory) {
    this.memory = memory;
    this.blocks[0] = memory.allocateOverLimit(4 * MIN_CAPACITY);
  }

  protected abstract boolean less(int a, int b);

  protected abstract int positionOf(int slot);

  protected abstract void setPosition(int slot, int position);

  public final int size() {
    return size;
  }

  public final boolean isEmpty() {
    return size == 0;
  }

  /** The least slot, or {@link #NONE}. */
  public final int peek() {
    return size == 0 ? NONE : blocks[0].getInt(0);
  }

  /** The slot at a position, 0 to size - 1, in no particular order. */
  public final int get(int position) {
    return at(position);
  }

  /**
   * The heap's slots, position by position, in a new array: a bulk copy of its blocks, about a
   * millisecond a million slots, so a listing can take a consistent picture in one turn.
   */
  public final int[] copySlots() {
    int[] copy = new int[size];
    for (int b = 0, at = 0; at < size; b++) {
      int n = Math.min(size - at, b == 0 && blockCount == 1 ? firstCapacity : BLOCK_SLOTS);
      blocks[b].asIntBuffer().get(0, copy, at, n);
      at += n;
    }
    return copy;
  }

  /** Off-heap bytes of the blocks behind the heap. */
  public final long reservedBytes() {
    return 4L * capacity();
  }

  /** Frees the blocks; the heap must not be used again. */
  public final void close() {
    for (int b = 0; b < blockCount; b++) {
      memory.free(blocks[b]);
      blocks[b] = null;
    }
    blockCount = 0;
  }

  public final void add(int slot) {
    if (size == capacity()) {
      grow();
    }
    set(size, slot);
    setPosition(slot, size);
    size++;
    siftUp(size - 1);
  }

  public final void remove(int slot) {
    int position = positionOf(slot);
    if (position < 0 || position >= size || at(position) != slot) {
      // Fail before touching the blocks: a wrong removal must not corrupt the heap.
      throw new IllegalStateException("slot " + slot + " is not in this heap");
    }
    size--;
    int last = at(size);
    setPosition(slot, NONE);
    if (position != size) {
      set(position, last);
      setPosition(last, position);
      siftDown(position);
      siftUp(positionOf(last));
    }
    shrink();
  }

  /** Restores the order after the key of {@code slot} changed. */
  public final void update(int slot) {
    siftDown(positionOf(slot));
    siftUp(positionOf(slot));
  }

  private void siftUp(int position) {
    int slot = at(position);
    while (position > 0) {
      int parent = (position - 1) >>> 1;
      int p = at(parent);
      if (!less(slot, p)) {
        break;
      }
      set(position, p);
      setPosition(p, position);
      position = parent;
    }
    set(position, slot);
    setPosition(slot, position);
  }

  private void siftDown(int position) {
    int slot = at(position);
    int half = size >>> 1;
    while (position < half) {
      int child = 2 * position + 1;
      int c = at(child);
      int right = child + 1;
      if (right < size) {
        int r = at(right);
        if (less(r, c)) {
          child = right;
          c = r;
        }
      }
      if (!less(c, slot)) {
        break;
      }
      set(position, c);
      setPosition(c, position);
      position = child;
    }
    set(position, slot);
    setPosition(slot, position);
  }

  private int capacity() {
    return blockCount == 1 ? firstCapacity : blockCount * BLOCK_SLOTS;
  }

  private int at(int position) {
    return blocks[position >>> BLOCK_SLOTS_LOG2].getInt((position & BLOCK_MASK) << 2);
  }

  private void set(int position, int slot) {
    blocks[position >>> BLOCK_SLOTS_LOG2].putInt((position & BLOCK_MASK) << 2, slot);
  }

  private void grow() {
    if (firstCapacity < BLOCK_SLOTS) {
      resizeFirst(firstCapacity * 2);
      return;
    }
    if (blockCount == blocks.length) {
      blocks = Arrays.copyOf(blocks, blockCount * 2);
    }
    blocks[blockCount++] = memory.allocateOverLimit(4 * BLOCK_SLOTS);
  }

  /**
   * Frees the last block once the heap is half a block below it (so that a heap going up and down
   * across a block's edge does not take and free it each time), and halves a first block a quarter
   * full.
   */
  private void shrink() {
    if (blockCount > 1) {
      if (size < (blockCount - 1) * BLOCK_SLOTS - BLOCK_SLOTS / 2) {
        memory.free(blocks[--blockCount]);
        blocks[blockCount] = null;
      }
    } else if (firstCapacity > 64 && size < firstCapacity >> 2) {
      resizeFirst(firstCapacity >> 1);
    }
  }

  private void resizeFirst(int newCapacity) {
    ByteBuffer resized = memory.allocateOverLimit(4 * newCapacity);
    resized.put(0, blocks[0], 0, 4 * size);
    memory.free(blocks[0]);
    blocks[0] = resized;
    firstCapacity = newCapacity;
  }
}
