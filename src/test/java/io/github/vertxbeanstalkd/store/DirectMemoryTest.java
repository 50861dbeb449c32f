package io.github.vertxbeanstalkd.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
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
}
