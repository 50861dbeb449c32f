package io.github.vertxbeanstalkd.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class DirectMemoryTest {
  @Test
  void blocksPastTheLimitAreRefusedAtOnceAndFreedBytesCountAgain() {
    DirectMemory memory = new DirectMemory(10_000);
    ByteBuffer a = memory.allocate(6_000);
    assertThrows(OutOfMemoryError.class, () -> memory.allocate(6_000));
    assertEquals(6_000, memory.reservedBytes());
    ByteBuffer index = memory.allocateOverLimit(6_000);
    assertEquals(12_000, memory.reservedBytes());
    memory.free(index);
    memory.free(a);
    assertEquals(0, memory.reservedBytes());
    memory.free(memory.allocate(10_000));
  }

  @Test
  void theDefaultLimitIsThreeQuartersOfTheHeapsMaximumWhenNoDirectMemoryLimitIsSet() {
    // The test JVM sets no -XX:MaxDirectMemorySize, so java.nio's limit is the heap's maximum.
    assertEquals((long) (Runtime.getRuntime().maxMemory() * 0.75), new DirectMemory().limitBytes());
  }

  @Test
  void javaFrom22OnUsesTheForeignMemoryApiWithJobBlocksUntouched() {
    DirectMemory memory = new DirectMemory();
    if (Runtime.version().feature() >= 22) {
      // The pom's argLine, conf/jvm.options and the jar's manifest enable native access.
      assertInstanceOf(ForeignBlocks.class, memory.source());
      assertTrue(memory.isUntouched());
    } else {
      assertInstanceOf(DirectBufferBlocks.class, memory.source());
    }
  }

  /** Java 25's store answered every put with INTERNAL_ERROR: freeing a block threw. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("sources")
  void manyBlocksAreFreedWithoutAnErrorAndTheCountsGoBackToZero(String name, NativeBlocks source) {
    DirectMemory memory = new DirectMemory(1L << 30, source);
    List<ByteBuffer> held = new ArrayList<>();
    for (int round = 0; round < 20; round++) {
      for (int i = 0; i < 50; i++) {
        int bytes = 8 + (i * 7919 + round * 104729) % (512 << 10);
        ByteBuffer block = i % 3 == 0 ? memory.allocateOverLimit(bytes) : memory.allocate(bytes);
        block.putLong(0, i);
        block.put(bytes - 1, (byte) i);
        block.position(i % 8);
        held.add(block);
      }
      for (ByteBuffer block : held) {
        memory.free(block);
      }
      held.clear();
      assertEquals(0, memory.reservedBytes(), "round " + round);
      assertEquals(0, memory.blocks(), "round " + round);
    }
  }

  @Test
  void javaNiosCountOfTheBlocksGoesBackDownWhenTheyAreFreed() {
    DirectMemory memory = new DirectMemory(1L << 30, new DirectBufferBlocks());
    int bytes = 64 << 20;
    long before = directBytesUsed();
    ByteBuffer job = memory.allocate(bytes);
    long held = directBytesUsed() - before;
    memory.free(job);
    long after = directBytesUsed() - before;
    // Other threads of the test JVM may hold a buffer or two of their own meanwhile.
    assertTrue(held >= bytes && held < bytes + (1 << 20), "held " + held);
    assertTrue(Math.abs(after) < 1 << 20, "left " + after);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sources")
  void aFreedBlockGoesBackToTheSystemAtOnce(String name, NativeBlocks source) throws IOException {
    DirectMemory memory = new DirectMemory(1L << 30, source);
    int bytes = 128 << 20;
    long before = rssBytes();
    ByteBuffer block = memory.allocate(bytes);
    for (int i = 0; i < bytes; i += 4096) {
      block.put(i, (byte) 1);
    }
    long written = rssBytes() - before;
    memory.free(block);
    long after = rssBytes() - before;
    assertTrue(written > 100 << 20, "resident once written: " + written);
    // A block this large is its own mmap in libc, unmapped by free.
    assertTrue(after < 16 << 20, "resident after the free: " + after);
  }

  @Test
  void anUntouchedBlockTakesNoMemoryUntilItIsWritten() throws IOException {
    assumeTrue(new DirectMemory().isUntouched(), "Java before 22: blocks are zeroed ahead");
    DirectMemory memory = new DirectMemory();
    int bytes = 128 << 20;
    long before = rssBytes();
    ByteBuffer block = memory.allocate(bytes);
    long untouched = rssBytes() - before;
    for (int i = 0; i < bytes; i += 4096) {
      block.put(i, (byte) 1);
    }
    long written = rssBytes() - before;
    memory.free(block);
    // allocateDirect's zeroing would have made all 128 MiB resident at once.
    assertTrue(untouched < 16 << 20, "resident before a write: " + untouched);
    assertTrue(written > 100 << 20, "resident once written: " + written);
  }

  @Test
  void aGrowableBlockIsCountedAsItGrowsAndABulkLoadsIsInHugePages() throws IOException, ReflectiveOperationException {
    assumeTrue(Runtime.version().feature() >= ForeignBlocks.FIRST_FEATURE, "Java before 22: allocateDirect");
    DirectMemory memory = new DirectMemory(64L << 20, new ForeignBlocks());
    assumeTrue(memory.growsInPlace(), "no mmap here");
    Path mode = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
    boolean isHugeGranted = Files.exists(mode) && !Files.readString(mode).contains("[never]");
    // A page of job records: three whole huge pages and 0.5 MiB of small ones.
    int whole = 104 << 16;
    // Other tests of this JVM may hold huge pages of their own: only what this test adds counts.
    long hugeAtStart = anonHugePageBytes();
    for (boolean isBulk : new boolean[] {false, true}) {
      memory.populateNewBlocks(isBulk);
      long rss = rssBytes();
      long huge = anonHugePageBytes();
      ByteBuffer block = memory.allocateGrowable(1 << 20, whole);
      assertEquals(whole, block.capacity());
      assertEquals(1 << 20, memory.reservedBytes());
      assertTrue(rssBytes() - rss < 4 << 20, "resident before the block is written: " + (rssBytes() - rss));
      memory.grow(block, 1 << 20, whole);
      assertEquals(whole, memory.reservedBytes());
      assertThrows(OutOfMemoryError.class, () -> memory.grow(block, whole, 100 << 20));
      assertEquals(whole, memory.reservedBytes(), "a refused growth counts nothing");
      memory.populateNewBlocks(false);
      for (int i = 0; i < whole; i += 8) {
        block.putLong(i, i);
      }
      for (int i = 0; i < whole; i += 8) {
        if (block.getLong(i) != i) {
          assertEquals(i, block.getLong(i), "byte " + i);
        }
      }
      long hugeWritten = anonHugePageBytes() - huge;
      memory.free(block, whole);
      assertEquals(0, memory.reservedBytes());
      if (isBulk && isHugeGranted) {
        assertTrue(hugeWritten >= 6 << 20, "a bulk load's block in huge pages: " + hugeWritten);
      } else {
        assertTrue(hugeWritten < 2 << 20, "a primary's block in huge pages: " + hugeWritten);
      }
    }
    long left = anonHugePageBytes() - hugeAtStart;
    assertTrue(left < 2 << 20, "huge pages left after the frees: " + left);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sources")
  void theIndexAndHeapsBlocksAreZeroedWhateverTheMemoryHeldBefore(String name, NativeBlocks source) {
    DirectMemory memory = new DirectMemory(1L << 30, source);
    // Small blocks come back from libc's free lists, large ones from mmap: both are checked.
    for (int bytes : new int[] {64 * 1024, 4 << 20}) {
      for (int round = 0; round < 8; round++) {
        ByteBuffer dirty = memory.allocate(bytes);
        for (int i = 0; i < bytes; i++) {
          dirty.put(i, (byte) 0xA5);
        }
        memory.free(dirty);
        ByteBuffer index = memory.allocateOverLimit(bytes);
        for (int i = 0; i < bytes; i++) {
          if (index.get(i) != 0) {
            assertEquals(0, index.get(i), "byte " + i + " of " + bytes);
          }
        }
        memory.free(index);
      }
    }
  }

  /** Every implementation this JVM can run: allocateDirect always, the foreign one from Java 22. */
  static Stream<Arguments> sources() {
    List<Arguments> sources = new ArrayList<>();
    sources.add(Arguments.of("allocateDirect", new DirectBufferBlocks()));
    if (Runtime.version().feature() >= ForeignBlocks.FIRST_FEATURE) {
      try {
        sources.add(Arguments.of("foreign", new ForeignBlocks()));
      } catch (ReflectiveOperationException e) {
        throw new AssertionError(e);
      }
    }
    return sources.stream();
  }

  private static long directBytesUsed() {
    return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
        .filter(pool -> pool.getName().equals("direct")).findFirst().orElseThrow().getMemoryUsed();
  }

  /** The process's anonymous memory in transparent huge pages. */
  private static long anonHugePageBytes() throws IOException {
    String line = Files.readAllLines(Path.of("/proc/self/smaps_rollup")).stream()
        .filter(l -> l.startsWith("AnonHugePages:")).findFirst().orElseThrow();
    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
  }

  private static long rssBytes() throws IOException {
    String[] statm = Files.readString(Path.of("/proc/self/statm")).trim().split(" ");
    return Long.parseLong(statm[1]) * 4096;
  }
}
