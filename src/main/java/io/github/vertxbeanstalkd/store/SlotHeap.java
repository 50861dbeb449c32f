package io.github.vertxbeanstalkd.store;

import java.util.Arrays;

/**
 * A binary min-heap of int slots whose positions are kept by the caller (in the slot's record), so
 * that any slot can be removed or re-keyed in O(log n). One int per slot and one array per heap:
 * the collector sees a single object whatever the heap holds. Subclasses say how slots compare and
 * where a slot's position lives.
 */
public abstract class SlotHeap {
  public static final int NONE = -1;
  private int[] slots = new int[16];
  private int size;

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
    return size == 0 ? NONE : slots[0];
  }

  /** The slot at a position, 0 to size - 1, in no particular order. */
  public final int get(int position) {
    return slots[position];
  }

  /** Bytes of the array behind the heap. */
  public final long reservedBytes() {
    return 16L + 4L * slots.length;
  }

  public final void add(int slot) {
    if (size == slots.length) {
      slots = Arrays.copyOf(slots, size + (size >> 1));
    }
    slots[size] = slot;
    setPosition(slot, size);
    size++;
    siftUp(size - 1);
  }

  public final void remove(int slot) {
    int position = positionOf(slot);
    if (position < 0 || position >= size || slots[position] != slot) {
      // Fail before touching the array: a wrong removal must not corrupt the heap.
      throw new IllegalStateException("slot " + slot + " is not in this heap");
    }
    size--;
    int last = slots[size];
    setPosition(slot, NONE);
    if (position != size) {
      slots[position] = last;
      setPosition(last, position);
      siftDown(position);
      siftUp(positionOf(last));
    }
    if (slots.length > 64 && size < slots.length >> 2) {
      slots = Arrays.copyOf(slots, slots.length >> 1);
    }
  }

  /** Restores the order after the key of {@code slot} changed. */
  public final void update(int slot) {
    siftDown(positionOf(slot));
    siftUp(positionOf(slot));
  }

  private void siftUp(int position) {
    int slot = slots[position];
    while (position > 0) {
      int parent = (position - 1) >>> 1;
      int p = slots[parent];
      if (!less(slot, p)) {
        break;
      }
      slots[position] = p;
      setPosition(p, position);
      position = parent;
    }
    slots[position] = slot;
    setPosition(slot, position);
  }

  private void siftDown(int position) {
    int slot = slots[position];
    int half = size >>> 1;
    while (position < half) {
      int child = 2 * position + 1;
      int c = slots[child];
      int right = child + 1;
      if (right < size && less(slots[right], c)) {
        child = right;
        c = slots[child];
      }
      if (!less(c, slot)) {
        break;
      }
      slots[position] = c;
      setPosition(c, position);
      position = child;
    }
    slots[position] = slot;
    setPosition(slot, position);
  }
}
