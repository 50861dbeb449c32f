package io.github.vertxbeanstalkd.persistence;

/** How the {@link LogWriter} tells the engine thread what became of its work; called on the writer thread. */
interface WriterReports {

  /** Every record up to {@code sequence} is as durable as the fsync policy promises. */
  void written(long sequence);

  /** A write failed for lack of space: refuse puts until {@link #spaceAvailable()}. */
  void diskFull();

  /** There is room again, and the space reserve is whole. */
  void spaceAvailable();

  /** The log cannot be trusted to keep anything more: nothing queued will be reported written. */
  void failed(Throwable cause);

  /** A sync the policy asked for took {@code nanos}; called on the writer's own thread. */
  default void synced(long nanos) {}
}
