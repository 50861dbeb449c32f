package io.github.vertxbeanstalkd.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ItemPoolTest {
  private final DirectMemory memory = new DirectMemory();

  @Test
  void aWalkOfTouchedHandlesMeetsEveryLiveItemOnce() {
    Random random = new Random(9);
    ItemPool pool = new ItemPool(memory, 16, 4);
    HashSet<Integer> live = new HashSet<>();
    List<Integer> handles = new ArrayList<>();
    for (int step = 0; step < 4000; step++) {
      if (handles.isEmpty() || random.nextInt(100) < 55) {
        int h = pool.allocate();
        live.add(h);
        handles.add(h);
      } else {
        int h = handles.remove(random.nextInt(handles.size()));
        live.remove(h);
        pool.free(h);
      }
      if (step % 500 == 0) {
        pool.trim();
      }
    }
    pool.trim();
    pool.trim();
    HashSet<Integer> met = new HashSet<>();
    int previous = -1;
    for (int h = pool.nextTouched(0); h >= 0; h = pool.nextTouched(h + 1)) {
      assertTrue(h > previous, "the walk went back from " + previous + " to " + h);
      previous = h;
      met.add(h);
    }
    assertTrue(met.containsAll(live), "the walk missed live items");
  }

  @Test
  void randomAllocationsAndFreesKeepEveryLiveItemsBytes() {
    for (long seed = 1; seed <= 20; seed++) {
      Random random = new Random(seed);
      ItemPool pool = new ItemPool(memory, 16, 4);
      // The reference model: every live handle and the value written into its item.
      HashMap<Integer, Long> live = new HashMap<>();
      ArrayList<Integer> handles = new ArrayList<>();
      for (int step = 0; step < 5000; step++) {
        boolean isAllocation = handles.isEmpty() || random.nextInt(100) < (step < 2500 ? 60 : 40);
        if (isAllocation) {
          int h = pool.allocate();
          assertTrue(live.get(h) == null, "seed " + seed + ": handle " + h + " handed out twice");
          long value = random.nextLong();
          pool.page(h).putLong(pool.offset(h) + 8, value);
          pool.page(h).putInt(pool.offset(h) + 4, h);
          live.put(h, value);
          handles.add(h);
        } else {
          int h = handles.remove(random.nextInt(handles.size()));
          assertEquals(live.remove(h), pool.page(h).getLong(pool.offset(h) + 8), "seed " + seed);
          assertEquals(h, pool.page(h).getInt(pool.offset(h) + 4), "seed " + seed);
          pool.free(h);
        }
        assertEquals(live.size(), pool.liveItems());
        if (random.nextInt(200) == 0) {
          pool.trim();
        }
      }
      for (int h : handles) {
        assertEquals(live.get(h), pool.page(h).getLong(pool.offset(h) + 8), "seed " + seed);
      }
      pool.close();
    }
    assertEquals(0, memory.reservedBytes());
  }

  @Test
  void newItemsGoToTheLowestPageWithRoom() {
    ItemPool pool = new ItemPool(memory, 8, 2);
    ArrayList<Integer> handles = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      handles.add(pool.allocate());
    }
    assertEquals(3, pool.livePages());
    pool.free(handles.get(9));
    pool.free(handles.get(1));
    assertEquals(handles.get(1), pool.allocate(), "page 0's hole comes first");
    assertEquals(handles.get(9), pool.allocate());
    assertEquals(3 << 2, pool.allocate(), "then a new page");
  }

  @Test
  void pagesThatStayEmptyForTwoTrimsAreGivenBack() {
    ItemPool pool = new ItemPool(memory, 64, 4);
    HashSet<Integer> handles = new HashSet<>();
    for (int i = 0; i < 16 * 10; i++) {
      handles.add(pool.allocate());
    }
    assertEquals(10 * 16 * 64, memory.reservedBytes());
    for (int h : handles) {
      if (h >>> 4 != 0) {
        pool.free(h);
      }
    }
    assertEquals(0, pool.trim(), "the first trim only notes the empty pages");
    assertEquals(9 * 16 * 64, pool.trim());
    assertEquals(1, pool.livePages());
    assertEquals(16 * 64, memory.reservedBytes());
    int h = pool.allocate();
    assertEquals(1, h >>> 4, "a released page's index is used again");
    pool.close();
    assertEquals(0, memory.reservedBytes());
  }

  @Test
  void aTrimWithABudgetGivesBackAboutThatMuchAndTheRestAtLaterTrims() {
    ItemPool pool = new ItemPool(memory, 64, 4);
    HashSet<Integer> handles = new HashSet<>();
    for (int i = 0; i < 16 * 10; i++) {
      handles.add(pool.allocate());
    }
    handles.forEach(pool::free);
    long page = 16 * 64;
    assertEquals(0, pool.trim(3 * page), "the first trim only notes the empty pages");
    // A page at a time until the budget is reached: three pages, then three, three, and the last.
    assertEquals(3 * page, pool.trim(3 * page));
    assertEquals(7, pool.livePages());
    assertEquals(3 * page, pool.trim(3 * page));
    assertEquals(0, pool.trim(0), "no budget: nothing given back, the empty pages stay noted");
    assertEquals(3 * page, pool.trim(3 * page));
    assertEquals(page, pool.trim(3 * page));
    assertEquals(0, pool.livePages());
    assertEquals(0, memory.reservedBytes());
  }

  @Test
  void aPageRefilledBetweenTrimsIsKept() {
    ItemPool pool = new ItemPool(memory, 8, 1);
    int a = pool.allocate();
    pool.free(a);
    pool.trim();
    pool.allocate();
    assertEquals(0, pool.trim());
    assertEquals(0, pool.trim());
    assertEquals(1, pool.livePages());
  }

  @Test
  void aPageStartsWithItsFirstBlockAndGrowsByAQuarterKeepingItsItems() {
    ItemPool pool = new ItemPool(memory, 64, 14);  // 1 MiB pages
    int first = pool.allocate();
    assertEquals(ItemPool.FIRST_BLOCK_BYTES, pool.reservedBytes(), "one item takes the first block, not the page");
    int perBlock = ItemPool.FIRST_BLOCK_BYTES / 64;
    ArrayList<Integer> handles = new ArrayList<>(List.of(first));
    for (int i = 1; i <= perBlock; i++) {
      handles.add(pool.allocate());
    }
    assertEquals(ItemPool.FIRST_BLOCK_BYTES / 4 * 5, pool.reservedBytes(), "the item past the block grows it by 1/4");
    for (int i = handles.size(); i < (1 << 14); i++) {
      handles.add(pool.allocate());
    }
    assertEquals(1, pool.livePages());
    assertEquals(1 << 20, pool.reservedBytes(), "grown to the whole page, no further");
    for (int h : handles) {
      pool.page(h).putInt(pool.offset(h) + 4, h);
    }
    pool.allocate();
    assertEquals((1 << 20) + (1 << 20) / 4, pool.reservedBytes(), "a new page starts at a quarter of the pool");
    for (int h : handles) {
      assertEquals(h, pool.page(h).getInt(pool.offset(h) + 4));
    }
    pool.close();
    assertEquals(0, memory.reservedBytes());
  }

  @Test
  void aBlockThatCannotGrowLeavesThePageAsItWas() {
    // Room for less than a quarter more: too little to grow, in place or by a copy.
    DirectMemory small = new DirectMemory(ItemPool.FIRST_BLOCK_BYTES + ItemPool.FIRST_BLOCK_BYTES / 8);
    ItemPool pool = new ItemPool(small, 64, 14);
    int perBlock = ItemPool.FIRST_BLOCK_BYTES / 64;
    ArrayList<Integer> handles = new ArrayList<>();
    for (int i = 0; i < perBlock; i++) {
      int h = pool.allocate();
      pool.page(h).putInt(pool.offset(h) + 4, h);
      handles.add(h);
    }
    assertThrows(OutOfMemoryError.class, pool::allocate);
    assertEquals(perBlock, pool.liveItems());
    assertEquals(ItemPool.FIRST_BLOCK_BYTES, small.reservedBytes());
    for (int h : handles) {
      assertEquals(h, pool.page(h).getInt(pool.offset(h) + 4));
    }
    pool.free(handles.get(3));
    assertEquals(handles.get(3), pool.allocate(), "a freed item is handed out again without growing");
    pool.close();
  }

  @Test
  void aDeepPoolsNewPagesStartWhole() {
    ItemPool pool = new ItemPool(memory, 64, 10);  // 64 KiB pages
    for (int i = 0; i < 4 << 10; i++) {
      pool.allocate();
    }
    assertEquals(4, pool.livePages());
    long before = pool.reservedBytes();
    pool.allocate();
    assertEquals(before + (64 << 10), pool.reservedBytes(), "4 pages' items: the fifth page is whole at once");
    pool.close();
  }
}
