package io.github.vertxbeanstalkd.replication;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A primary's most recent live batches, as they were shipped, up to a bound in bytes: a standby
 * that was away (dropped, or restarted) and applied this term's stream up to a sequence the
 * backlog still reaches resumes from there instead of taking a full copy (Redis's replication
 * backlog, in the binlog's own frames).
 */
final class Backlog {
  private final long maxBytes;
  private final ArrayDeque<StandbyLink.Held> entries = new ArrayDeque<>();
  private long bytes;
  /** Every record after this sequence is in the backlog (the last one dropped, or the term's start). */
  private long holdsAfter;

  /** @param startsAfter the sequence this term's stream starts after (what was logged before the promotion) */
  Backlog(long maxBytes, long startsAfter) {
    this.maxBytes = maxBytes;
    this.holdsAfter = startsAfter;
  }

  void add(StandbyLink.Held e) {
    entries.add(e);
    bytes += e.frames().length();
    while (bytes > maxBytes && !entries.isEmpty()) {
      StandbyLink.Held dropped = entries.poll();
      bytes -= dropped.frames().length();
      holdsAfter = dropped.last();
    }
  }

  /**
   * The batches a standby that applied everything up to {@code applied} still lacks, in order, or
   * null when the backlog cannot tell: it no longer reaches back that far, or {@code applied} is
   * beyond what was shipped, or falls inside a batch.
   */
  List<StandbyLink.Held> after(long applied, long lastShipped) {
    if (applied < holdsAfter || applied > lastShipped) {
      return null;
    }
    List<StandbyLink.Held> missing = new ArrayList<>();
    for (StandbyLink.Held e : entries) {
      if (e.last() <= applied) {
        continue;
      }
      if (e.first() <= applied) {
        return null;
      }
      missing.add(e);
    }
    return missing;
  }

  long bytes() {
    return bytes;
  }
}
