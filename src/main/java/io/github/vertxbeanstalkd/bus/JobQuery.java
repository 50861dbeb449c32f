package io.github.vertxbeanstalkd.bus;

import io.github.vertxbeanstalkd.protocol.JobState;

/**
 * A page of a tube's jobs in one state, in the order the tube serves them: the {@code limit} jobs
 * after {@code after}, or those just before {@code before}, whose body holds {@code filter} (null:
 * every job), each with the first {@code previewBytes} bytes of its body. With neither cursor, the
 * listing starts afresh from what the tube holds now.
 */
public record JobQuery(String tube, JobState state, JobCursor after, JobCursor before, int limit, byte[] filter,
    int previewBytes) {

  public JobQuery {
    if (after != null && before != null) {
      throw new IllegalArgumentException("a page is after a cursor or before one, not both");
    }
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1");
    }
  }

  /** No cursor: the first page of a new listing. */
  public boolean isFresh() {
    return after == null && before == null;
  }

  /** Whether the page runs backwards, from {@link #before}. */
  public boolean isBackwards() {
    return before != null;
  }
}
