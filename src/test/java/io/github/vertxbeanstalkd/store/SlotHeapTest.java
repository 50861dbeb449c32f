package io.github.vertxbeanstalkd.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class SlotHeapTest {
  private final long[] keys = new long[1000];
  private final int[] positions = new int[1000];
  private final DirectMemory memory = new DirectMemory();
  private final SlotHeap heap = new SlotHeap(memory) {
    protected boolean less(int a, int b) {
      return keys[a] < keys[b] || (keys[a] == keys[b] && a < b);
    }
    protected int positionOf(int slot) {
      return positions[slot];
    }
    protected void setPosition(int slot, int position) {
      positions[slot] = position;
    }
  };

  @Test
  void randomAddsRemovesAndUpdatesMatchASortedSet() {
    Arrays.fill(positions, SlotHeap.NONE);
    Random random = new Random(3);
    // The reference model: (key, slot) pairs in order.
    TreeSet<long[]> model = new TreeSet<>((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
    for (int step = 0; step < 20000; step++) {
      int slot = random.nextInt(keys.length);
      boolean isIn = positions[slot] != SlotHeap.NONE;
      int action = random.nextInt(4);
      if (!isIn) {
        keys[slot] = random.nextInt(50);
        heap.add(slot);
        model.add(new long[] {keys[slot], slot});
      } else if (action == 0) {
        model.remove(new long[] {keys[slot], slot});
        keys[slot] = random.nextInt(50);
        heap.update(slot);
        model.add(new long[] {keys[slot], slot});
      } else if (action == 1) {
        int top = heap.peek();
        assertEquals(model.first()[1], top);
        heap.remove(top);
        model.remove(new long[] {keys[top], top});
      } else {
        heap.remove(slot);
        model.remove(new long[] {keys[slot], slot});
      }
      assertEquals(model.size(), heap.size());
      assertEquals(model.isEmpty() ? SlotHeap.NONE : (int) model.first()[1], heap.peek());
      assertEquals(heap.reservedBytes(), memory.reservedBytes());
    }
    heap.close();
    assertEquals(0, memory.reservedBytes());
  }

  @Test
  void removingASlotThatIsNotThereFailsWithoutHarm() {
    Arrays.fill(positions, SlotHeap.NONE);
    heap.add(1);
    assertThrows(IllegalStateException.class, () -> heap.remove(2));
    assertEquals(1, heap.peek());
  }
}
