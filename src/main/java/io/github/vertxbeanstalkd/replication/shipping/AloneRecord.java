package io.github.vertxbeanstalkd.replication.shipping;

import io.github.vertxbeanstalkd.replication.election.GroupLock;
import io.vertx.core.Future;

/**
 * Where a primary records, fenced by its term, that it acknowledges changes alone, and that its
 * standbys hold them again ({@link GroupLock#recordAlone}), as a future on the caller's context.
 */
@FunctionalInterface
public interface AloneRecord {
  /**
   * Completes with true once recorded, with false when a newer term holds the record, and fails
   * when the store cannot be reached; not applied after {@code deadlineMillis} (wall clock).
   */
  Future<Boolean> record(long term, boolean isAlone, long deadlineMillis);
}
