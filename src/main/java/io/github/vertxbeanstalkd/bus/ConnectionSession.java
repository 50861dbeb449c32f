package io.github.vertxbeanstalkd.bus;

import io.github.vertxbeanstalkd.protocol.Command;
import java.util.List;

/**
 * One protocol connection's session, wherever it runs (this node's engine, or the group's
 * primary): what is submitted runs in order, and the replies reach the listener it was opened
 * with, in the same order, one per command ({@link Command.PutLine} gets none).
 */
public interface ConnectionSession {
  /** Runs {@code commands} in order, in the session's own tubes. */
  void submit(List<Command> commands);

  /** The client will send nothing more; a reserve it waits in answers TIMED_OUT. */
  void endInput();

  /** Ends the session: its jobs return to ready, and nothing more is heard from it. */
  void close();

  /**
   * Ends the session as {@link #close()} does, and runs {@code released} on the caller's context
   * once nothing submitted is held any more: this node's engine reads a put's body where the front
   * read it, until it has run or dropped the command.
   */
  default void close(Runnable released) {
    close();
    released.run();
  }
}
