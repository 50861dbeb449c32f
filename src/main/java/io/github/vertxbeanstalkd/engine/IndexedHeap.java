package io.github.vertxbeanstalkd.engine;

import java.util.Arrays;

/**
 * A binary min-heap whose elements remember their own position, so that any element can be
 * removed or re-keyed in O(log n). Subclasses say how to order elements and where the position
 * is stored.
 */
abstract class IndexedHeap<T> {
  private Object[] items = new Object[16];
  private int size;

  abstract boolean less(T a, T b);

  abstract int positionOf(T item);

  abstract void setPosition(T item, int position);

  final int size() {
    return size;
  }

  final boolean isEmpty() {
    return size == 0;
  }

  @SuppressWarnings("unchecked")
  final T peek() {
    return size == 0 ? null : (T) items[0];
  }

  @SuppressWarnings("unchecked")
  final T get(int position) {
    return (T) items[position];
  }

  final void add(T item) {
    if (size == items.length) {
      items = Arrays.copyOf(items, size + (size >> 1));
    }
    items[size] = item;
    setPosition(item, size);
    size++;
    siftUp(size - 1);
  }

  final T poll() {
    T top = peek();
    if (top != null) {
      remove(top);
    }
    return top;
  }

  @SuppressWarnings("unchecked")
  final void remove(T item) {
    int position = positionOf(item);
    if (position < 0 || position >= size || items[position] != item) {
      // Fail before touching the array: a wrong removal must not corrupt the heap.
      throw new IllegalStateException("not in this heap: " + item);
    }
    size--;
    T last = (T) items[size];
    items[size] = null;
    setPosition(item, -1);
    if (position != size) {
      items[position] = last;
      setPosition(last, position);
      siftDown(position);
      siftUp(positionOf(last));
    }
    if (items.length > 64 && size < items.length >> 2) {
      items = Arrays.copyOf(items, items.length >> 1);
    }
  }

  /** Restores the order after the key of {@code item} changed. */
  final void update(T item) {
    siftDown(positionOf(item));
    siftUp(positionOf(item));
  }

  @SuppressWarnings("unchecked")
  private void siftUp(int position) {
    T item = (T) items[position];
    while (position > 0) {
      int parent = (position - 1) >>> 1;
      T p = (T) items[parent];
      if (!less(item, p)) {
        break;
      }
      items[position] = p;
      setPosition(p, position);
      position = parent;
    }
    items[position] = item;
    setPosition(item, position);
  }

  @SuppressWarnings("unchecked")
  private void siftDown(int position) {
    T item = (T) items[position];
    int half = size >>> 1;
    while (position < half) {
      int child = 2 * position + 1;
      T c = (T) items[child];
      int right = child + 1;
      if (right < size && less((T) items[right], c)) {
        child = right;
        c = (T) items[child];
      }
      if (!less(c, item)) {
        break;
      }
      items[position] = c;
      setPosition(c, position);
      position = child;
    }
    items[position] = item;
    setPosition(item, position);
  }
}
