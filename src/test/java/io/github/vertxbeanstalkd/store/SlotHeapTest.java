package io.github.vertxbeanstalkd.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
  void aHeapOfManyBlocksGrowsABlockAtATimeAndGivesThemBack() {
    int n = 5 * SlotHeap.BLOCK_SLOTS + 123;
    long[] bigKeys = new long[n];
    int[] bigPositions = new int[n];
    DirectMemory bigMemory = new DirectMemory();
    SlotHeap big = new SlotHeap(bigMemory) {
      protected boolean less(int a, int b) {
        return bigKeys[a] < bigKeys[b] || (bigKeys[a] == bigKeys[b] && a < b);
      }
      protected int positionOf(int slot) {
        return bigPositions[slot];
      }
      protected void setPosition(int slot, int position) {
        bigPositions[slot] = position;
      }
    };
    Random random = new Random(5);
    for (int slot = 0; slot < n; slot++) {
      bigKeys[slot] = random.nextInt(1_000_000);
      long before = big.reservedBytes();
      big.add(slot);
      if (slot == SlotHeap.BLOCK_SLOTS || slot == 3 * SlotHeap.BLOCK_SLOTS) {
        // Past the first block the heap takes one more block and keeps the ones it has.
        assertEquals(before + 4L * SlotHeap.BLOCK_SLOTS, big.reservedBytes(), "at " + slot);
      }
    }
    assertEquals(4L * 6 * SlotHeap.BLOCK_SLOTS, big.reservedBytes());
    assertEquals(big.reservedBytes(), bigMemory.reservedBytes());
    long previous = Long.MIN_VALUE;
    for (int left = n; left > 0; left--) {
      int top = big.peek();
      assertTrue(bigKeys[top] >= previous, "popped in order");
      previous = bigKeys[top];
      big.remove(top);
      assertEquals(left - 1, big.size());
      assertTrue(big.reservedBytes() >= 4L * big.size(), "room for what is left");
      assertTrue(big.reservedBytes() <= 4L * (big.size() + 2L * SlotHeap.BLOCK_SLOTS), "blocks given back");
    }
    assertEquals(SlotHeap.NONE, big.peek());
    assertTrue(big.reservedBytes() <= 4L * 64, "the first block halved back");
    big.close();
    assertEquals(0, bigMemory.reservedBytes());
  }

  @Test
  void removingASlotThatIsNotThereFailsWithoutHarm() {
    Arrays.fill(positions, SlotHeap.NONE);
    heap.add(1);
    assertThrows(IllegalStateException.class, () -> heap.remove(2));
    assertEquals(1, heap.peek());
  }
}
