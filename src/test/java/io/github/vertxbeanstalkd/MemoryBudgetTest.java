package io.github.vertxbeanstalkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MemoryBudgetTest {
  private static final long MIB = 1L << 20;

  @Test
  void theRssBoundIsTheHeapTheDirectMemoryAndTheFixedPart() {
    MemoryBudget budget = new MemoryBudget(64 * MIB, 320 * MIB, 240 * MIB, 216 * MIB, 512 * MIB, true);
    assertEquals(64 * MIB + 320 * MIB + MemoryBudget.FIXED_OVERHEAD_BYTES, budget.rssBoundBytes());
    assertEquals("memory budget: heap at most 64 MiB, direct memory at most 320 MiB (the job store up to 240 MiB, "
        + "maxMemory 216 MiB; the sockets' buffers the rest), JVM and code about "
        + (MemoryBudget.FIXED_OVERHEAD_BYTES / MIB) + " MiB: RSS at most about "
        + ((64 + 320) + MemoryBudget.FIXED_OVERHEAD_BYTES / MIB) + " MiB (memory here: 512 MiB)", budget.describe());
  }

  @Test
  void aHeapLimitTheJvmWorkedOutIsNotABound() {
    assertTrue(new MemoryBudget(6 * 1024 * MIB, 6 * 1024 * MIB, 0, 0, 24 * 1024 * MIB, false).isHeapUnbounded());
    assertFalse(new MemoryBudget(128 * MIB, 224 * MIB, 0, 0, 512 * MIB, true).isHeapUnbounded(),
        "-Xmx128m in a 512 MiB container is a quarter of it, and chosen");
    // Surefire's JVM runs without -Xmx.
    assertTrue(MemoryBudget.of(0).isHeapUnbounded());
  }

  @Test
  void theDefaultMaxMemoryIsNinetyPercentOfTheStoresShareOfDirectMemory() {
    MemoryBudget budget = MemoryBudget.of(0);
    assertEquals((long) (budget.directMaxBytes() * 0.75), budget.storeLimitBytes());
    assertEquals((long) (budget.storeLimitBytes() * 0.9), budget.maxMemoryBytes());
    assertEquals(12345, MemoryBudget.of(12345).maxMemoryBytes());
  }
}
