package io.github.vertxbeanstalkd.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Random;
import org.junit.jupiter.api.Test;

class IdIndexTest {
  private final DirectMemory memory = new DirectMemory();
  private final HashMap<Integer, Long> idOfSlot = new HashMap<>();
  private final IdIndex index = new IdIndex(memory, idOfSlot::get);
  private final HashMap<Long, Integer> model = new HashMap<>();
  private int nextSlot;

  private void put(long id) {
    int slot = nextSlot++;
    idOfSlot.put(slot, id);
    index.put(id, slot);
    model.put(id, slot);
  }

  private void remove(long id) {
    assertTrue(index.remove(id), "id " + id);
    idOfSlot.remove(model.remove(id));
    assertFalse(index.remove(id), "id " + id + " again");
  }

  private void assertMatchesModel(long... probes) {
    assertEquals(model.size(), index.size());
    for (var e : model.entrySet()) {
      assertEquals(e.getValue(), index.get(e.getKey()), "id " + e.getKey());
    }
    for (long probe : probes) {
      assertEquals(model.getOrDefault(probe, IdIndex.NONE), index.get(probe), "id " + probe);
    }
    int[] slots = index.slots();
    Arrays.sort(slots);
    assertArrayEquals(model.values().stream().mapToInt(Integer::intValue).sorted().toArray(), slots);
  }

  @Test
  void aQueueDrainedInOrderKeepsAFewPagesAndMatchesAMap() {
    ArrayDeque<Long> queue = new ArrayDeque<>();
    long id = 1;
    for (int step = 0; step < 200_000; step++) {
      put(id);
      queue.add(id++);
      if (queue.size() > 20_000) {
        remove(queue.poll());
      }
    }
    assertMatchesModel(0, 1, id, id + 1, id + IdIndex.PAGE_IDS);
    // 20,000 live ids: their 5 or 6 pages and a table for the thinned pages' last few ids.
    assertTrue(index.reservedBytes() < 20_000 * 8, "reserved " + index.reservedBytes());
    while (!queue.isEmpty()) {
      remove(queue.poll());
    }
    assertMatchesModel(1, id - 1);
  }

  @Test
  void randomPutsRemovesJumpsAndOldIdsMatchAMap() {
    Random random = new Random(7);
    ArrayList<Long> liveIds = new ArrayList<>();
    long nextId = 1;
    for (int step = 0; step < 300_000; step++) {
      int kind = random.nextInt(100);
      if (kind < 55 || liveIds.isEmpty()) {
        long id;
        if (kind == 0) {
          // Far ahead, as after a restore: past the window's gap limit now and then.
          id = nextId + random.nextInt(2) * IdIndex.MAX_GAP_PAGES * IdIndex.PAGE_IDS + random.nextInt(50_000);
        } else if (kind == 1 && nextId > 100_000) {
          // Behind the window, never handed out before.
          id = -1;
          for (int tries = 0; tries < 10 && (id < 0 || model.containsKey(id)); tries++) {
            id = 1 + random.nextInt((int) Math.min(nextId - 1, Integer.MAX_VALUE));
          }
          if (model.containsKey(id)) {
            continue;
          }
        } else {
          id = nextId;
        }
        put(id);
        liveIds.add(id);
        nextId = Math.max(nextId, id + 1);
      } else {
        // Mostly the oldest (a queue), sometimes any (a delete by id).
        int i = random.nextInt(4) == 0 ? random.nextInt(liveIds.size()) : random.nextInt(Math.min(64, liveIds.size()));
        long id = liveIds.get(i);
        liveIds.set(i, liveIds.get(liveIds.size() - 1));
        liveIds.remove(liveIds.size() - 1);
        remove(id);
      }
      if (random.nextInt(1_000) == 0) {
        index.trim();
      }
      if (step % 50_000 == 0) {
        assertMatchesModel(nextId, nextId + IdIndex.PAGE_IDS, 0);
      }
      if (random.nextInt(20) == 0) {
        long probe = random.nextBoolean() && !liveIds.isEmpty() ? liveIds.get(random.nextInt(liveIds.size()))
            : 1 + (long) (random.nextDouble() * nextId);
        assertEquals(model.getOrDefault(probe, IdIndex.NONE), index.get(probe), "id " + probe);
      }
    }
    assertMatchesModel(nextId);
  }

  @Test
  void aPageKeptByFewIdsIsGivenBackAndItsIdsStayFound() {
    long id = 1;
    for (int i = 0; i < IdIndex.PAGE_IDS * 8; i++) {
      put(id++);
    }
    long before = index.reservedBytes();
    // Keep every 64th id: fewer than SPARSE_IDS per page, so every page but the newest goes.
    for (long j = 1; j < id; j++) {
      if (j % 64 != 0 && j < id - IdIndex.PAGE_IDS) {
        remove(j);
      }
    }
    assertMatchesModel(64, 65, id);
    // The newest ids' two pages (ids start at 1) and the table's smallest size; before: nine pages.
    assertTrue(index.reservedBytes() <= 2 * IdIndex.PAGE_IDS * 4 + SlotIndex.BYTES_PER_BUCKET * 1024,
        "reserved " + index.reservedBytes() + " of " + before);
  }

  @Test
  void putsAndDeletesInStepKeepOnePage() {
    // One job at a time: each page is empty when the next one is made, so no delete thins it.
    for (long id = 1; id <= 100_000; id++) {
      put(id);
      remove(id);
    }
    put(100_001);
    assertMatchesModel(100_001, 100_000, 1);
    assertEquals(IdIndex.PAGE_IDS * 4 + SlotIndex.BYTES_PER_BUCKET * 1024, index.reservedBytes());
  }

  @Test
  void aDrainedIndexHoldsWhatANewOneDoes() {
    long empty = index.reservedBytes();
    for (long id = 1; id <= 10_000; id++) {
      put(id);
    }
    for (long id = 1; id <= 10_000; id++) {
      remove(id);
    }
    assertEquals(empty, index.reservedBytes());
    index.trim();
    assertEquals(empty, index.reservedBytes());
    for (long id = 10_001; id <= 20_000; id++) {
      put(id);
    }
    remove(15_000);
    assertMatchesModel(10_001, 15_000, 20_000, 20_001);
  }

  @Test
  void idsPutBehindAJumpLandInTheSkippedPagesNotInTheTable() {
    // A standby's copy: ids in order from below, and among them the primary's new puts far ahead.
    long ahead = 5_000_000;
    for (long id = 1; id <= 2_000_000; id++) {
      put(id);
      if (id % 100 == 0) {
        put(ahead++);
      }
    }
    assertMatchesModel(0, 2_000_001, 4_999_999, ahead);
    long pages = 2_000_000 / IdIndex.PAGE_IDS + (ahead - 5_000_000) / IdIndex.PAGE_IDS + 8;
    // In the table they would take more than 16 MiB.
    assertTrue(index.reservedBytes() <= pages * IdIndex.PAGE_IDS * 4 + SlotIndex.BYTES_PER_BUCKET * 1024,
        "reserved " + index.reservedBytes());
  }

  @Test
  void anEmptyIndexStartsItsWindowWhereTheNextIdIs() {
    for (long id = 5_000_000; id < 5_010_000; id++) {
      put(id);
    }
    for (long id = 5_000_000; id < 5_010_000; id++) {
      remove(id);
    }
    for (long id = 1; id <= 100_000; id++) {
      put(id);
    }
    assertMatchesModel(0, 100_001, 5_000_000);
    long pages = 100_000 / IdIndex.PAGE_IDS + 2;
    assertTrue(index.reservedBytes() <= pages * IdIndex.PAGE_IDS * 4 + SlotIndex.BYTES_PER_BUCKET * 1024,
        "reserved " + index.reservedBytes());
  }

  @Test
  void fewIdsScatteredOverSkippedPagesGoToTheTable() {
    put(1);
    put(2_000L * IdIndex.PAGE_IDS);
    for (long k = 1; k < 2_000; k++) {
      put(k * IdIndex.PAGE_IDS + 5);
    }
    assertMatchesModel(2, IdIndex.PAGE_IDS + 6);
    // A page each would be 2,000 pages (31 MiB); the table holds them in well under 100 pages' worth.
    assertTrue(index.reservedBytes() < 100L * IdIndex.PAGE_IDS * 4, "reserved " + index.reservedBytes());
  }

  @Test
  void everythingIsGivenBackOnClose() {
    for (long id = 1; id <= 50_000; id++) {
      put(id);
    }
    assertTrue(memory.reservedBytes() > 0);
    index.close();
    assertEquals(0, memory.reservedBytes());
  }
}
