package io.github.vertxbeanstalkd.replication.election;

import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The CP seats of members that left the cluster, by the address they had, until a member shows up
 * at that address again: a process with another Vert.x node id there is the node restarted (its
 * former self, and the seat, are dead for sure: two processes cannot hold one address), the same
 * node id is the same process merged back after a pause or a partition, still seated.
 */
final class DepartedSeats {
  /** The Vert.x node id of the process that left, and the CP member id its seat had. */
  private record Seat(String vertxNodeId, UUID cpMemberUuid) {}

  private final Map<String, Seat> byAddress = new ConcurrentHashMap<>();

  /** A member that held the seat {@code cpMemberUuid} left from {@code address}. */
  void departed(String address, String vertxNodeId, UUID cpMemberUuid) {
    byAddress.put(address, new Seat(vertxNodeId, cpMemberUuid));
  }

  /**
   * A member joined at {@code address}: the seat of the process that left from there when this one
   * is another process (a restart), empty when it is the same one back or nobody seated left from
   * there. The address is forgotten either way.
   */
  Optional<UUID> arrived(String address, String vertxNodeId) {
    Seat seat = byAddress.remove(address);
    if (seat == null || seat.vertxNodeId().equals(vertxNodeId)) {
      return Optional.empty();
    }
    return Optional.of(seat.cpMemberUuid());
  }
}
