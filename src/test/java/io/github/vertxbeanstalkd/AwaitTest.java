package io.github.vertxbeanstalkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

class AwaitTest {
  @Test
  void aValueThatComesIsReturned() {
    AtomicInteger polls = new AtomicInteger();
    assertEquals("third", Await.value(() -> polls.incrementAndGet() == 3 ? "third" : null, 5_000, () -> "never"));
  }

  @Test
  void aConditionThatNeverHoldsFailsNamingIt() {
    AssertionFailedError e = assertThrows(AssertionFailedError.class, () -> Await.until("the sky falls", () -> false, 50));
    assertTrue(e.getMessage().contains("the sky falls within 50 ms"), e.getMessage());
  }

  @Test
  void eventuallyTellsWhetherItHeld() {
    AtomicInteger polls = new AtomicInteger();
    assertTrue(Await.eventually(5_000, () -> polls.incrementAndGet() >= 2));
    assertFalse(Await.eventually(30, () -> false));
  }
}
