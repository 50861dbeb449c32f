package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.bus.EngineSnapshot;


/** Hears what the engine publishes for metrics: its snapshot, and how long the binlog's syncs take. */
public interface EngineObserver {
  /** Hears nothing. */
  EngineObserver NONE = new EngineObserver() {
    @Override
    public void published(EngineSnapshot snapshot) {}

    @Override
    public void synced(long nanos) {}
  };

  /** A fresh snapshot, about once a second and whenever one is asked for; on the engine's thread. */
  void published(EngineSnapshot snapshot);

  /** A binlog sync took {@code nanos}; on the log writer's thread. */
  void synced(long nanos);
}
