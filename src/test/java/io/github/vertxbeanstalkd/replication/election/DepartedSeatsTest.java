package io.github.vertxbeanstalkd.replication.election;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class DepartedSeatsTest {
  private static final String ADDRESS = "[127.0.0.1]:5701";
  private final DepartedSeats seats = new DepartedSeats();
  private final UUID seat = UUID.randomUUID();

  @Test
  void anotherProcessAtTheAddressOfADepartedSeatIsARestartWhoseFormerSeatIsFreed() {
    seats.departed(ADDRESS, "node-a", seat);
    assertEquals(Optional.of(seat), seats.arrived(ADDRESS, "node-a-restarted"));
  }

  @Test
  void theSameProcessBackAfterAPauseOrAPartitionKeepsItsSeat() {
    seats.departed(ADDRESS, "node-a", seat);
    assertTrue(seats.arrived(ADDRESS, "node-a").isEmpty());
  }

  @Test
  void aMemberAtAnotherAddressFreesNothing() {
    seats.departed(ADDRESS, "node-a", seat);
    assertTrue(seats.arrived("[127.0.0.1]:5702", "node-d").isEmpty());
    assertEquals(Optional.of(seat), seats.arrived(ADDRESS, "node-a-restarted"));
  }

  @Test
  void aSeatIsFreedOnceAndTheAddressIsForgottenWhenSomeoneArrives() {
    seats.departed(ADDRESS, "node-a", seat);
    assertTrue(seats.arrived(ADDRESS, "node-a").isEmpty());
    // The same process left and came back: a later newcomer there has no departed seat to free.
    assertTrue(seats.arrived(ADDRESS, "node-b").isEmpty());
    seats.departed(ADDRESS, "node-b", seat);
    assertEquals(Optional.of(seat), seats.arrived(ADDRESS, "node-c"));
    assertTrue(seats.arrived(ADDRESS, "node-d").isEmpty());
  }

  @Test
  void theLatestDepartureFromAnAddressCounts() {
    UUID later = UUID.randomUUID();
    seats.departed(ADDRESS, "node-a", seat);
    seats.departed(ADDRESS, "node-b", later);
    assertEquals(Optional.of(later), seats.arrived(ADDRESS, "node-c"));
  }
}
