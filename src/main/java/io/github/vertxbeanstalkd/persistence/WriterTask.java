package io.github.vertxbeanstalkd.persistence;

/** Work the engine thread queues for the {@link LogWriter}, done strictly in order. */
sealed interface WriterTask {

  /** Write one record; {@code sequence} is what {@link WriterReports#written} reports. */
  record Append(long sequence, BinlogRecord record) implements WriterTask {}

  /**
   * Write {@code data[from, to)}, whole record frames as a standby received them (not encoded
   * again); {@code lastSequence} is the sequence of the last of them, what {@link WriterReports#written} reports.
   */
  record AppendFrames(long lastSequence, byte[] data, int from, int to) implements WriterTask {}

  /** Finish (fsync, close) the current segment and start segment {@code index}. */
  record StartSegment(long index) implements WriterTask {}

  /** Delete segment {@code index}, once everything written before this task is fsynced. */
  record DeleteSegment(long index) implements WriterTask {}

  /** Write and fsync everything before this task, then end the writer thread. */
  record Stop() implements WriterTask {}
}
