package io.github.vertxbeanstalkd.replication;

import io.github.vertxbeanstalkd.protocol.Command;
import java.util.List;

/** Where one routed connection's session runs now: this node's engine, or a primary across the cluster. */
interface Link {
  /** The primary this session runs on. */
  PrimaryRoute.Primary primary();

  void submit(List<Command> commands);

  void endInput();

  /** Ends the session there (its jobs return to ready); nothing more is heard from it. */
  void close();
}
