package io.github.vertxbeanstalkd.replication.forwarding;

import io.github.vertxbeanstalkd.protocol.Command;
import java.util.List;

/** Where one routed connection's session runs now: this node's engine, or a primary across the cluster. */
interface Link {
  /** Opens routed connections' sessions on primaries, and hears when a connection closes. */
  interface Opener {
    /** Opens {@code connection}'s session on {@code primary}; its replies go to {@link RoutedConnection#onReply}. */
    Link open(PrimaryRoute.Primary primary, RoutedConnection connection);

    void closed(RoutedConnection connection);
  }

  /** The primary this session runs on. */
  PrimaryRoute.Primary primary();

  void submit(List<Command> commands);

  void endInput();

  /**
   * {@code delta} more of the connection's commands sent here wait for their replies (fewer when
   * negative): a session on another node counts them as forwarded, one on this node's engine does not.
   */
  void awaitingReplies(int delta);

  /** Ends the session there (its jobs return to ready); nothing more is heard from it. */
  void close();
}
