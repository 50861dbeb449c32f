package io.github.vertxbeanstalkd.store;

import java.nio.ByteBuffer;

/**
 * A binary min-heap of int slots whose positions are kept by the caller (in the slot's record), so
 * that any slot can be removed or re-keyed in O(log n). One int per slot in an off-heap array: the
 * collector sees one small object whatever the heap holds, and an array outgrown or shrunk is freed
 * at once instead of lingering as garbage. Subclasses say how slots compare and where a slot's
 * position lives. {@link #close()} frees the array.
 */
public abstract class SlotHeap {
  public static final int NONE = -1;
  private static final int MIN_CAPACITY = 16;
  private final DirectMemory memory;
  private ByteBuffer slots;
  private int capacity = MIN_CAPACITY;
  private int size;

  protected SlotHeap(DirectMemory memory) {
    this.memory = memory;
    this.slots = memory.allocateOverLimit(4 * MIN_CAPACITY);
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
    return size == 0 ? NONE : slots.getInt(0);
  }

  /** The slot at a position, 0 to size - 1, in no particular order. */
  public final int get(int position) {
    return at(position);
  }

  /** Off-heap bytes of the array behind the heap. */
  public final long reservedBytes() {
    return 4L * capacity;
  }

  /** Frees the array; the heap must not be used again. */
  public final void close() {
    if (slots != null) {
      memory.free(slots);
      slots = null;
    }
  }

  public final void add(int slot) {
    if (size == capacity) {
      resize(capacity + (capacity >> 1));
    }
    set(size, slot);
    setPosition(slot, size);
    size++;
    siftUp(size - 1);
  }

  public final void remove(int slot) {
    int position = positionOf(slot);
    if (position < 0 || position >= size || at(position) != slot) {
      // Fail before touching the array: a wrong removal must not corrupt the heap.
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
    if (capacity > 64 && size < capacity >> 2) {
      resize(capacity >> 1);
    }
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

  private int at(int position) {
    return slots.getInt(position << 2);
  }

  private void set(int position, int slot) {
    slots.putInt(position << 2, slot);
  }

  private void resize(int newCapacity) {
    ByteBuffer bigger = memory.allocateOverLimit(4 * newCapacity);
    bigger.put(0, slots, 0, 4 * size);
    memory.free(slots);
    slots = bigger;
    capacity = newCapacity;
  }
}
