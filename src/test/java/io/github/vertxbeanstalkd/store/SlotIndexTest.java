package io.github.vertxbeanstalkd.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SlotIndexTest {
  private final DirectMemory memory = new DirectMemory();
  private final long[] idOfSlot = new long[400_001];
  private final SlotIndex index = new SlotIndex(memory, slot -> idOfSlot[slot]);

  @Test
  void randomPutsAndRemovesThroughGrowthAndShrinkageMatchAHashMap() {
    Random random = new Random(11);
    HashMap<Long, Integer> model = new HashMap<>();
    ArrayList<Long> liveIds = new ArrayList<>();
    ArrayList<Integer> freeSlots = new ArrayList<>();
    for (int s = 200_000 - 1; s >= 0; s--) {
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
        for (int calls = 0; calls < 1000 && index.reservedBytes() > 4 * 1024; calls++) {
          index.trim();
        }
        assertEquals(SlotIndex.BYTES_PER_BUCKET * 1024, index.reservedBytes(), "shrunk to the smallest table, 1024 buckets");
      }
      for (var e : model.entrySet()) {
        assertEquals(e.getValue(), index.get(e.getKey()));
      }
    }
    index.close();
    assertEquals(0, memory.reservedBytes());
  }

  @Test
  void resizesAndDeletesReadNoRecordAndTrimMovesABoundedNumberOfEntriesPerCall() {
    int[] recordReads = new int[1];
    SlotIndex counted = new SlotIndex(memory, slot -> {
      recordReads[0]++;
      return idOfSlot[slot];
    });
    int n = 400_000;
    for (int id = 1; id <= n; id++) {
      idOfSlot[id] = id;
      counted.put(id, id);
    }
    assertEquals(0, recordReads[0], "puts (and the doublings they drove) read no record");
    // Down to 60,000 entries: the table (2^20 buckets after 400,000 puts) starts halving under an
    // eighth full, the removes after that move part of it, and what is left to move is trim's.
    int live = 60_000;
    for (int id = 1; id <= n - live; id++) {
      recordReads[0] = 0;
      assertTrue(counted.remove(id));
      assertEquals(1, recordReads[0], "a remove reads its own record only, to confirm the tag's match");
    }
    int calls = 0;
    long before = counted.reservedBytes();
    recordReads[0] = 0;
    for (; calls < 1000 && counted.reservedBytes() >= before; calls++) {
      counted.trim();
    }
    assertEquals(0, recordReads[0], "moves read no record");
    // One call passes up to 2^20 buckets, the whole old table: only the bound on entries moved a
    // call makes it take more than one.
    assertTrue(calls > 1, "moving what was left took " + calls + " calls of at most "
        + SlotIndex.TRIM_MOVES_PER_CALL + " entries");
    assertTrue(counted.reservedBytes() < before, "the old table went");
    for (int id = n - live + 1; id <= n; id += 101) {
      assertEquals(id, counted.get(id));
    }
  }

  @Test
  void idsInSequenceAndInStridesSpreadOverTheTable() {
    int mask = (1 << 20) - 1;
    // Every id, every 8th, or every 2^20th (a client keeping one job in so many): no home takes
    // more than a few of 10,000.
    for (int stride : new int[] {1, 8, 1 << 20, (1 << 20) + 1}) {
      java.util.Map<Integer, Integer> perHome = new HashMap<>();
      for (int k = 0; k < 10_000; k++) {
        perHome.merge(SlotIndex.home(k * stride, mask), 1, Integer::sum);
      }
      int most = perHome.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
      assertTrue(most <= 4, "stride " + stride + ": " + most + " ids share a home");
    }
  }

  @Test
  void idsWithTheSameLow32BitsAreToldApartByTheirRecords() {
    long low = 77;
    long high = low + (1L << 32);
    put(low, 1);
    put(high, 2);
    assertEquals(1, index.get(low));
    assertEquals(2, index.get(high));
    assertTrue(index.remove(low));
    assertEquals(SlotIndex.NONE, index.get(low));
    assertEquals(2, index.get(high));
  }

  @Test
  void trimShrinksAnEmptiedTableInOneCall() {
    for (int id = 1; id <= 100_000; id++) {
      put(id, id);
    }
    for (int id = 1; id <= 100_000; id++) {
      assertTrue(index.remove(id));
    }
    index.trim();
    assertEquals(SlotIndex.BYTES_PER_BUCKET * 1024, index.reservedBytes(), "empty buckets are cheap to pass");
  }

  @Test
  void theDoubledTableIsTakenABlockAtATimeBeforeItIsNeeded() {
    int buckets = 1 << 20;
    int full = buckets / 4 * 3;
    long[] ids = new long[full + 2];
    DirectMemory bigMemory = new DirectMemory();
    SlotIndex big = new SlotIndex(bigMemory, slot -> ids[slot]);
    long blockBytes = 256 * 1024;
    long largestStep = 0;
    for (int slot = 0; slot <= full; slot++) {
      long before = big.reservedBytes();
      ids[slot] = slot + 1;
      big.put(slot + 1, slot);
      if (slot > buckets / 2) { // from half full on, past where the doubled table is taken
        largestStep = Math.max(largestStep, big.reservedBytes() - before);
      }
    }
    // The last put started the doubling with the 16 MiB table already taken, one 256 KiB block at
    // a time: no put zeroed more than a block.
    assertEquals(blockBytes, largestStep);
    assertEquals(3L * SlotIndex.BYTES_PER_BUCKET * buckets, big.reservedBytes());
    assertEquals(bigMemory.reservedBytes(), big.reservedBytes());
    for (int slot = 0; slot <= full; slot += 997) {
      assertEquals(slot, big.get(slot + 1));
    }
    big.close();
    assertEquals(0, bigMemory.reservedBytes());
  }

  private void put(long id, int slot) {
    idOfSlot[slot] = id;
    index.put(id, slot);
  }
}
