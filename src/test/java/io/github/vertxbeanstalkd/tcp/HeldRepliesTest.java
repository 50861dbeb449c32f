package io.github.vertxbeanstalkd.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HeldRepliesTest {
  /** A holder that, like a Connection, holds nothing once closed. */
  final class Client implements HeldReplies.Holder {
    final String name;
    long bytes;
    /** Of {@link #bytes}, input rather than replies (a client stopped in the middle of a body). */
    long inputBytes;
    boolean isClosed;

    Client(String name) {
      this.name = name;
    }

    void hold(long now) {
      long before = bytes;
      bytes = now;
      held.hold(this, before, now);
    }

    @Override
    public long heldBytes() {
      return bytes;
    }

    @Override
    public long repliesBytes() {
      return bytes - inputBytes;
    }

    @Override
    public void closeForHoldingReplies() {
      isClosed = true;
      closedInOrder.add(name);
      bytes = 0;
    }
  }

  private final HeldReplies held = new HeldReplies(1000);
  private final List<String> closedInOrder = new ArrayList<>();

  @Test
  void underTheLimitNobodyIsClosed() {
    Client a = new Client("a");
    Client b = new Client("b");
    a.hold(600);
    b.hold(400);
    assertEquals(1000, held.heldBytes());
    assertEquals(List.of(), closedInOrder);
    a.hold(0);
    assertEquals(400, held.heldBytes(), "a client that read its replies holds nothing");
  }

  @Test
  void pastTheLimitTheLargestHoldersAreClosedUntilTheRestFits() {
    Client small = new Client("small");
    Client big = new Client("big");
    Client middle = new Client("middle");
    small.hold(100);
    big.hold(500);
    middle.hold(300);
    small.hold(150);
    assertEquals(List.of(), closedInOrder);
    Client newcomer = new Client("newcomer");
    newcomer.hold(400);
    assertEquals(List.of("big"), closedInOrder, "1350 > 1000: the one holding the most goes");
    assertEquals(850, held.heldBytes());
    newcomer.hold(900);
    assertEquals(List.of("big", "newcomer"), closedInOrder, "the one that grew past everyone goes itself");
    assertEquals(450, held.heldBytes());
    assertEquals(2, held.closedConnections());
  }

  /**
   * A client stopped in the middle of a put's body holds its input, not replies it does not read:
   * the clients that do not read go first, though each holds less.
   */
  @Test
  void theOneHoldingTheMostRepliesGoesNotTheOneHoldingTheMostInput() {
    Client filling = new Client("filling");
    filling.inputBytes = 600;
    filling.hold(620);
    Client notReading = new Client("not reading");
    notReading.hold(300);
    Client alsoNotReading = new Client("also not reading");
    alsoNotReading.hold(250);
    assertEquals(List.of("not reading"), closedInOrder, "1170 > 1000: the one holding the most replies goes");
    assertEquals(870, held.heldBytes());
    assertEquals(false, filling.isClosed);
  }

  @Test
  void aHolderUpdatesItsCountRatherThanAddingToIt() {
    Client a = new Client("a");
    for (int bytes = 10; bytes <= 900; bytes += 10) {
      a.hold(bytes);
    }
    assertEquals(900, held.heldBytes());
    assertEquals(List.of(), closedInOrder);
  }
}
