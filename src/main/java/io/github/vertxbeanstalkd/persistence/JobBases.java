package io.github.vertxbeanstalkd.persistence;

/**
 * Where the log keeps, for each live job, the segment holding its latest snapshot and that
 * snapshot's size ({@link JobBaseIndex#pack}): in a server, a field of the job's own record in the
 * engine's off-heap store, so the account costs 8 bytes a job and no table of its own; in tools and
 * tests, a {@link JobBaseIndex}. The log calls {@link #put} when it places a job's snapshot and
 * {@link #remove} when it places the job's delete, while the job is still held. Engine thread only.
 */
public interface JobBases {
  long ABSENT = -1;

  /** The job's base, or {@link #ABSENT}. */
  long get(long id);

  /** Sets the base of a job that is held; returns the one it had, or {@link #ABSENT}. */
  long put(long id, long packed);

  /** The job no longer has a base; returns the one it had, or {@link #ABSENT}. */
  long remove(long id);

  /** Frees what the account holds of its own. */
  default void close() {}
}
