package io.github.vertxbeanstalkd.persistence;

/** What the engine hears from its {@link Binlog}; called on the engine thread, but for {@link #onSynced}. */
public interface BinlogListener {

  /** Every record appended with a sequence up to {@code sequence} is durable under the policy. */
  void onDurable(long sequence);

  /**
   * The log failed for good (a write or fsync error other than a full disk): nothing waiting
   * will become durable, and {@link Binlog#append} refuses from now on.
   */
  void onFailure(Throwable cause);

  /**
   * The disk filled up ({@link Binlog.Health#DISK_FULL}),
   * or has room again ({@link Binlog.Health#WRITING}).
   */
  default void onHealthChanged(Binlog.Health health) {}

  /**
   * A sync the fsync policy asked for took {@code nanos} (with {@code always}, a batch's write and
   * sync together). Called on the log writer's thread: implementations must be thread-safe.
   */
  default void onSynced(long nanos) {}
}
