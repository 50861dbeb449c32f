package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.persistence.BinlogRecord;

/**
 * Hears every change the engine logs, in order, with its binlog sequence, and the slices of full
 * copies read between them: a primary ships both to its standbys in this one order.
 */
@FunctionalInterface
public interface ChangeStream {
  /** Hears nothing. */
  ChangeStream NONE = (sequence, record) -> {};

  /** {@code record} was appended to the binlog as {@code sequence}; on the engine's thread. */
  void appended(long sequence, BinlogRecord record);

  /** A slice of a standby's full copy was read here, after every change appended so far; on the engine's thread. */
  default void copied(CopySlice slice) {}
}
