package io.github.vertxbeanstalkd.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The front's count of the input its connections hold: who may read again once it falls below
 * the limit, and who is closed when it stays past it.
 */
class ReadAheadTest {
  private static final long CHUNK = PressedReads.PRESSED_READ_BYTES;
  private final List<String> events = new ArrayList<>();
  private final ReadAhead readAhead = new ReadAhead(10 * CHUNK);

  private final class Client implements ReadAhead.Waiter {
    final String name;
    long bytes;
    long replies;

    Client(String name, long bytes) {
      this.name = name;
      this.bytes = bytes;
      readAhead.changed(0, bytes);
    }

    @Override
    public void roomAgain() {
      events.add("read " + name);
    }

    @Override
    public long inputBytes() {
      return bytes;
    }

    @Override
    public long repliesBytes() {
      return replies;
    }

    @Override
    public void closeForHoldingInput() {
      events.add("close " + name);
      readAhead.changed(bytes, 0);
      bytes = 0;
    }
  }

  @Test
  void roomForOneReadWakesOneTheOneThatHoldsTheMost() {
    Client a = new Client("a", 3 * CHUNK);
    Client b = new Client("b", 5 * CHUNK);
    Client c = new Client("c", 3 * CHUNK);
    readAhead.waitForRoom(a);
    readAhead.waitForRoom(b);
    readAhead.waitForRoom(c);
    assertTrue(readAhead.isPassed(), "11 chunks of 10");

    readAhead.changed(CHUNK, 0);
    assertEquals(List.of("read b"), events, "10 of 10: at least one reads, b, nearest a whole body");
    events.clear();
    readAhead.changed(0, CHUNK);
    readAhead.changed(CHUNK, 0);
    assertEquals(List.of("read a"), events, "b is not waiting: a and c hold as much, the one that stopped first goes");
    events.clear();
    readAhead.changed(0, CHUNK);
    readAhead.changed(9 * CHUNK, 0);
    assertEquals(List.of("read c"), events, "room for many: everyone left reads again");
  }

  @Test
  void aClientThatDoesNotReadGoesBeforeOneStoppedInTheMiddleOfABody() {
    Client filling = new Client("filling", 8 * CHUNK);
    Client notReading = new Client("not reading", 3 * CHUNK);
    notReading.replies = 64 * 1024;
    readAhead.waitForRoom(filling);
    readAhead.waitForRoom(notReading);
    assertTrue(readAhead.check(System.nanoTime() + ReadAhead.STUCK_NANOS + 1));
    assertEquals(List.of("close not reading", "read filling"), events, "below the limit again, the filling one reads on");
  }

  @Test
  void pastTheLimitWithNothingComingTheWaiterHoldingTheMostIsClosedOneACheck() {
    Client a = new Client("a", 4 * CHUNK);
    Client b = new Client("b", 7 * CHUNK);
    readAhead.waitForRoom(a);
    readAhead.waitForRoom(b);
    long now = System.nanoTime();
    assertFalse(readAhead.check(now), "not past it long enough");

    assertTrue(readAhead.check(now + ReadAhead.STUCK_NANOS + 1));
    assertEquals(List.of("close b", "read a"), events, "b closed: below the limit, a reads again");
    assertEquals(1, readAhead.closedConnections());
    assertFalse(readAhead.check(now + 10 * ReadAhead.STUCK_NANOS), "nothing past the limit");
  }
}
