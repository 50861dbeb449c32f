package io.github.vertxbeanstalkd.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SlotIndexTest {
  private final DirectMemory memory = new DirectMemory();
  private final long[] idOfSlot = new long[200_000];
  private final SlotIndex index = new SlotIndex(memory, slot -> idOfSlot[slot]);

  @Test
  void randomPutsAndRemovesThroughGrowthAndShrinkageMatchAHashMap() {
    Random random = new Random(11);
    HashMap<Long, Integer> model = new HashMap<>();
    ArrayList<Long> liveIds = new ArrayList<>();
    ArrayList<Integer> freeSlots = new ArrayList<>();
    for (int s = idOfSlot.length - 1; s >= 0; s--) {
      freeSlots.add(s);
    }
    long nextId = 1;
    // Grow to 100k, shrink to a few, grow again: every resize runs while changes go on.
    int[] targets = {100_000, 50, 30_000, 0};
    for (int target : targets) {
      while (model.size() != target) {
        boolean isPut = model.size() < target ? random.nextInt(10) < 8 : random.nextInt(10) < 2;
        if (isPut && !freeSlots.isEmpty()) {
          int slot = freeSlots.remove(freeSlots.size() - 1);
          long id = random.nextInt(20) == 0 ? nextId + random.nextInt(1000_000) : nextId;
          nextId = Math.max(nextId, id) + 1;
          idOfSlot[slot] = id;
          index.put(id, slot);
          model.put(id, slot);
          liveIds.add(id);
        } else if (!liveIds.isEmpty()) {
          int i = random.nextInt(liveIds.size());
          long id = liveIds.get(i);
          liveIds.set(i, liveIds.get(liveIds.size() - 1));
          liveIds.remove(liveIds.size() - 1);
          assertEquals(true, index.remove(id));
          freeSlots.add(model.remove(id));
          assertFalse(index.remove(id));
        }
        if (random.nextInt(50) == 0) {
          long probe = liveIds.isEmpty() || random.nextBoolean() ? nextId + 5 : liveIds.get(random.nextInt(liveIds.size()));
          assertEquals(model.getOrDefault(probe, SlotIndex.NONE), index.get(probe), "id " + probe);
        }
      }
      assertEquals(model.size(), index.size());
      if (target == 50) {
        index.trim();
        assertEquals(4 * 1024, index.reservedBytes(), "shrunk to the smallest table, 1024 buckets");
      }
      for (var e : model.entrySet()) {
        assertEquals(e.getValue(), index.get(e.getKey()));
      }
    }
    index.close();
    assertEquals(0, memory.reservedBytes());
  }
}
