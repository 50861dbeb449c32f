package io.github.vertxbeanstalkd.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The off-heap lists and arrays keep every long across their block boundaries, and give their memory back. */
class LongListTest {
  @Test
  void aListKeepsEveryLongAcrossItsGrowthAndBlocks() {
    DirectMemory memory = new DirectMemory(0);
    LongList list = new LongList(memory);
    int n = 3 * 8192 + 17;
    for (int i = 0; i < n; i++) {
      list.add(i * 31L - 7);
    }
    assertEquals(n, list.size());
    for (int i = 0; i < n; i++) {
      assertEquals(i * 31L - 7, list.get(i));
    }
    assertThrows(IndexOutOfBoundsException.class, () -> list.get(n));
    list.close();
    assertEquals(0, memory.reservedBytes());
    assertEquals(0, memory.blocks());
  }

  @Test
  void anArrayIsZeroedAndKeepsEveryLongAcrossBlocks() {
    DirectMemory memory = new DirectMemory(0);
    long n = 2L * LongArray.BLOCK_LONGS + 5;
    LongArray array = new LongArray(memory, n);
    assertEquals(0, array.get(n - 1));
    for (long i = 0; i < n; i += 7) {
      array.set(i, ~i);
    }
    for (long i = 0; i < n; i++) {
      assertEquals(i % 7 == 0 ? ~i : 0, array.get(i));
    }
    assertEquals(n * 8, memory.reservedBytes());
    array.close();
    assertEquals(0, memory.reservedBytes());
  }
}
