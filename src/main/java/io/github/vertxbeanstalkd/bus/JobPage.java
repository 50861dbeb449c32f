package io.github.vertxbeanstalkd.bus;

import java.util.List;

/**
 * The engine's answer to a {@link JobQuery}: the jobs found, in serving order, and where the page
 * stands in the listing. A page costs the engine bounded work: one may come back with fewer jobs
 * than asked and a {@code resume} cursor to go on from, in the same direction.
 *
 * @param first the key of the first job looked at (listed or not), null if none was
 * @param last the key of the last job looked at, null if none was
 * @param resume non-null when the page stopped at its work bound: ask again from there
 * @param isAtStart no job comes before {@code first}
 * @param isAtEnd no job comes after {@code last}
 */
public record JobPage(List<ListedJob> jobs, JobCursor first, JobCursor last, JobCursor resume, boolean isAtStart,
    boolean isAtEnd) {

  /** Whether the page stopped at its work bound. */
  public boolean isCut() {
    return resume != null;
  }
}
