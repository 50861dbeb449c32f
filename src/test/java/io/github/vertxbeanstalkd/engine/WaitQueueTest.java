package io.github.vertxbeanstalkd.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.bus.SessionKey;
import io.github.vertxbeanstalkd.store.DirectMemory;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** One tube's waiting reservers: first come first served, against the linked set it replaces. */
class WaitQueueTest {
  private final JobTable table = new JobTable(new DirectMemory());

  @AfterEach
  void close() {
    table.close();
  }

  private Session session(int n) {
    return new Session(new SessionKey("test", n), true, n, table, false, new FrontFlow(Long.MAX_VALUE));
  }

  private static void park(WaitQueue q, Session s) {
    s.park(Long.MAX_VALUE);
    q.add(s);
  }

  private static void unpark(WaitQueue q, Session s) {
    s.unpark();
    q.remove(s);
  }

  @Test
  void aSessionThatWaitsAgainQueuesBehindThoseAlreadyWaiting() {
    WaitQueue q = new WaitQueue();
    Session a = session(1);
    Session b = session(2);
    park(q, a);
    park(q, b);
    unpark(q, a);
    park(q, a);
    assertEquals(2, q.size());
    assertSame(b, q.first());
    unpark(q, b);
    assertSame(a, q.first());
    unpark(q, a);
    assertTrue(q.isEmpty());
  }

  @Test
  void randomWaitsAndWakesMatchALinkedSet() {
    WaitQueue q = new WaitQueue();
    LinkedHashSet<Session> model = new LinkedHashSet<>();
    List<Session> all = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      all.add(session(i));
    }
    Random random = new Random(3);
    for (int step = 0; step < 50_000; step++) {
      Session s = all.get(random.nextInt(all.size()));
      if (!s.isWaiting()) {
        park(q, s);
        model.add(s);
      } else if (random.nextBoolean()) {
        // Woken by a job: the longest waiter is the one served.
        Session first = q.first();
        assertSame(model.iterator().next(), first);
        unpark(q, first);
        model.remove(first);
      } else {
        // Woken by its timeout, or served through another tube it watches.
        unpark(q, s);
        model.remove(s);
      }
      assertEquals(model.size(), q.size());
      if (!model.isEmpty()) {
        assertSame(model.iterator().next(), q.first());
      }
    }
  }
}
