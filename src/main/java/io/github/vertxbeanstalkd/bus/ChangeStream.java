package io.github.vertxbeanstalkd.bus;

import io.github.vertxbeanstalkd.persistence.BinlogRecord;

/** Hears every change the engine logs, in order, with its binlog sequence: a primary ships them to its standbys. */
@FunctionalInterface
public interface ChangeStream {
  /** Hears nothing. */
  ChangeStream NONE = (sequence, record) -> {};

  /** {@code record} was appended to the binlog as {@code sequence}; on the engine's thread. */
  void appended(long sequence, BinlogRecord record);
}
