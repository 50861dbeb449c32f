package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.bus.EngineReply;

/** Where the engine hands finished replies and notices, session by session, in order. */
@FunctionalInterface
public interface ReplySink {
  void deliver(EngineReply reply);
}
