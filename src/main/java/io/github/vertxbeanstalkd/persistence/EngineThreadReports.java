package io.github.vertxbeanstalkd.persistence;

import java.util.concurrent.Executor;

/** Carries the writer's news to the engine thread, where all the state of a {@link Binlog} lives. */
final class EngineThreadReports implements WriterReports {
  private final Binlog binlog;
  private final Executor engineThread;
  private final BinlogListener listener;

  EngineThreadReports(Binlog binlog, Executor engineThread, BinlogListener listener) {
    this.binlog = binlog;
    this.engineThread = engineThread;
    this.listener = listener;
  }

  @Override
  public void synced(long nanos) {
    // A timing only, for metrics: no engine state, so no hop to the engine thread.
    listener.onSynced(nanos);
  }

  @Override
  public void written(long sequence) {
    engineThread.execute(() -> binlog.onWritten(sequence));
  }

  @Override
  public void diskFull() {
    engineThread.execute(() -> binlog.onHealth(Binlog.Health.WRITING, Binlog.Health.DISK_FULL));
  }

  @Override
  public void spaceAvailable() {
    engineThread.execute(() -> binlog.onHealth(Binlog.Health.DISK_FULL, Binlog.Health.WRITING));
  }

  @Override
  public void failed(Throwable cause) {
    engineThread.execute(() -> binlog.onFailed(cause));
  }
}
