package io.github.vertxbeanstalkd.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
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
  void theTestsRunWithJobBlocksUntouchedAsTheServerDoes() {
    assertTrue(new DirectMemory().isUntouched(),
        "run with --add-opens java.base/java.nio=ALL-UNNAMED (the pom's argLine, conf/jvm.options)");
  }

  @ParameterizedTest(name = "untouched={0}")
  @ValueSource(booleans = {true, false})
  void blocksCountAgainstTheJvmsDirectMemoryLimitUntilFreed(boolean isUntouched) {
    DirectMemory memory = new DirectMemory(1L << 30, isUntouched);
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

  @Test
  void anUntouchedBlockTakesNoMemoryUntilItIsWritten() throws IOException {
    DirectMemory memory = new DirectMemory(1L << 30, true);
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
  void theIndexAndHeapsBlocksAreZeroedWhateverTheMemoryHeldBefore() {
    DirectMemory memory = new DirectMemory(1L << 30, true);
    int bytes = 64 * 1024;
    for (int round = 0; round < 8; round++) {
      ByteBuffer dirty = memory.allocate(bytes);
      for (int i = 0; i < bytes; i++) {
        dirty.put(i, (byte) 0xA5);
      }
      memory.free(dirty);
      ByteBuffer index = memory.allocateOverLimit(bytes);
      for (int i = 0; i < bytes; i++) {
        assertEquals(0, index.get(i), "byte " + i);
      }
      memory.free(index);
    }
  }

  private static long directBytesUsed() {
    return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
        .filter(pool -> pool.getName().equals("direct")).findFirst().orElseThrow().getMemoryUsed();
  }

  private static long rssBytes() throws IOException {
    String[] statm = Files.readString(Path.of("/proc/self/statm")).trim().split(" ");
    return Long.parseLong(statm[1]) * 4096;
  }
}
