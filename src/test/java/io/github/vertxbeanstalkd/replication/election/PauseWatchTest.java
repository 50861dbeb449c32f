package io.github.vertxbeanstalkd.replication.election;

import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/**
 * A node that was not paused acts on its own view of the members: it closes a departed member's CP
 * session at once (failover after a kill in about a second, not the session's time-to-live) and
 * frees the CP seat it held before a restart (rejoining in seconds, not after Hazelcast's 30 s).
 */
class PauseWatchTest {
  @Test
  void aWatchThatSawNoPauseTrustsItsView() {
    PauseWatch watch = new PauseWatch(() -> false, gap -> {}, () -> {});
    assertFalse(watch.isViewStale());
  }
}
