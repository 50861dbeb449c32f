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
    randomBodiesComeBack(store);
  }

  /**
   * The warm-up's stores (pages 64 times smaller, so that a few thousand jobs fill hundreds of
   * pages): the largest classes' pages would hold a quarter of a body, and hold one instead.
   */
  @Test
  void randomBodiesComeBackFromSmallPages() {
    randomBodiesComeBack(new BodyStore(memory, 6));
  }

  private void randomBodiesComeBack(BodyStore store) {
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

  @Test
  void aWriterPutsTheBodyStraightInWithoutTouchingItsNeighbours() {
    Random random = new Random(3);
    for (int length : new int[] {1, 7, 100, 104, 1000, BodyStore.LARGEST_CLASS_BYTES, BodyStore.LARGEST_CLASS_BYTES + 5}) {
      byte[] before = new byte[length];
      byte[] body = new byte[length];
      byte[] after = new byte[length];
      random.nextBytes(before);
      random.nextBytes(body);
      random.nextBytes(after);
      long beforeRef = store.store(before);
      // In two parts, as a body that came in two reads.
      long ref = store.store(length, target -> {
        assertEquals(length, target.remaining());
        target.put(body, 0, length / 2).put(body, length / 2, length - length / 2);
      });
      long afterRef = store.store(after);
      assertArrayEquals(before, store.read(beforeRef, length));
      assertArrayEquals(body, store.read(ref, length));
      assertArrayEquals(after, store.read(afterRef, length));
      store.free(beforeRef);
      store.free(ref);
      store.free(afterRef);
    }
    assertEquals(BodyStore.EMPTY, store.store(0, target -> { }));
  }

  @Test
  void aWriterThatPutsTooFewBytesKeepsNothing() {
    long reserved = store.reservedBytes();
    long free = store.freeBytes();
    byte[] body = {1, 2, 3};
    org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
        () -> store.store(100, target -> target.put(body)));
    long ref = store.store(100, target -> target.put(new byte[100]));
    assertArrayEquals(new byte[100], store.read(ref, 100));
    store.free(ref);
    assertTrue(store.reservedBytes() >= reserved);
    assertEquals(store.reservedBytes() - reserved, store.freeBytes() - free);
  }
}
