package io.github.vertxbeanstalkd.engine;

/**
 * What a change needs besides the local binlog before its client hears of it: on a replicated
 * primary, the standbys' acknowledgements and a fresh lease. Read on the engine's thread.
 */
public interface Acknowledgements {
  /** Nothing besides the local binlog. */
  Acknowledgements LOCAL = () -> Long.MAX_VALUE;

  /** The highest binlog sequence whose changes may be acknowledged to clients, as far as this goes. */
  long acknowledgedSequence();

  /** False while changes must be refused (answered INTERNAL_ERROR); reads and deletes go on. */
  default boolean acceptsChanges() {
    return true;
  }
}
