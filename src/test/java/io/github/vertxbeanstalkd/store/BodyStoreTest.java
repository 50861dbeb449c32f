package io.github.vertxbeanstalkd.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BodyStoreTest {
  private final DirectMemory memory = new DirectMemory();
  private final BodyStore store = new BodyStore(memory);

  @Test
  void sizeClassesRiseByAtMostAnEighth() {
    int[] sizes = BodyStore.sizeClasses();
    assertEquals(8, sizes[0]);
    assertEquals(BodyStore.LARGEST_CLASS_BYTES, sizes[sizes.length - 1]);
    for (int i = 1; i < sizes.length; i++) {
      assertTrue(sizes[i] > sizes[i - 1]);
      assertTrue(sizes[i] % 8 == 0);
      assertTrue(sizes[i] - sizes[i - 1] <= Math.max(8, sizes[i - 1] / 4), "step at " + sizes[i]);
    }
    assertEquals(104, store.roomFor(100));
    assertEquals(104, store.roomFor(97));
    assertEquals(160, store.roomFor(129));
    assertEquals(0, store.roomFor(0));
    assertEquals(70000, store.roomFor(70000));
  }

  @Test
  void randomBodiesComeBackByteForByte() {
    Random random = new Random(7);
    ArrayList<byte[]> bodies = new ArrayList<>();
    ArrayList<Long> refs = new ArrayList<>();
    for (int step = 0; step < 4000; step++) {
      if (refs.isEmpty() || random.nextInt(100) < 55) {
        int length = switch (random.nextInt(10)) {
          case 0 -> 0;
          case 1 -> BodyStore.LARGEST_CLASS_BYTES + random.nextInt(1000);
          case 2 -> random.nextInt(BodyStore.LARGEST_CLASS_BYTES + 1);
          default -> random.nextInt(300);
        };
        byte[] body = new byte[length];
        random.nextBytes(body);
        refs.add(store.store(body));
        bodies.add(body);
      } else {
        int i = random.nextInt(refs.size());
        assertArrayEquals(bodies.get(i), store.read(refs.get(i), bodies.get(i).length));
        store.free(refs.remove(i));
        bodies.remove(i);
      }
      if (random.nextInt(300) == 0) {
        store.trim();
      }
    }
    for (int i = 0; i < refs.size(); i++) {
      assertArrayEquals(bodies.get(i), store.read(refs.get(i), bodies.get(i).length));
      store.free(refs.get(i));
    }
    store.trim();
    store.trim();
    assertEquals(0, store.reservedBytes());
    assertEquals(0, memory.reservedBytes());
  }

  @Test
  void aSliceOfAnArrayIsStored() {
    byte[] line = "xxhelloyy".getBytes();
    long ref = store.store(line, 2, 5);
    assertArrayEquals("hello".getBytes(), store.read(ref, 5));
  }
}
