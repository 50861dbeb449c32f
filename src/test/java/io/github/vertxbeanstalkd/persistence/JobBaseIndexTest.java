package io.github.vertxbeanstalkd.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.store.DirectMemory;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The ledger's off-heap index of job bases answers as a map would, through growth and backward-shift deletes. */
class JobBaseIndexTest {
  @Test
  void itAnswersAsAMapWould() {
    DirectMemory memory = new DirectMemory(0);
    JobBaseIndex index = new JobBaseIndex(memory);
    Map<Long, Long> model = new HashMap<>();
    Random random = new Random(7);
    for (int i = 0; i < 300_000; i++) {
      // Dense ids, as a server issues them, and some far apart.
      long id = random.nextInt(10) == 0 ? 1 + random.nextInt(Integer.MAX_VALUE) : 1 + random.nextInt(50_000);
      if (random.nextInt(3) == 0) {
        assertEquals(model.getOrDefault(id, JobBaseIndex.ABSENT), index.remove(id));
        model.remove(id);
      } else {
        long value = JobBaseIndex.pack(random.nextInt(1000), random.nextInt(1 << 20));
        assertEquals(model.getOrDefault(id, JobBaseIndex.ABSENT), index.put(id, value));
        model.put(id, value);
      }
      if (i % 1000 == 0) {
        assertEquals(model.size(), index.size());
      }
    }
    for (Map.Entry<Long, Long> e : model.entrySet()) {
      assertEquals(e.getValue(), index.get(e.getKey()));
    }
    assertEquals(JobBaseIndex.ABSENT, index.get(Long.MAX_VALUE));
    index.close();
    assertEquals(0, memory.reservedBytes());
  }
}
