package io.github.vertxbeanstalkd.replication.shipping;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The most recent stretch of a replication history's stream of frames, up to a bound in bytes,
 * addressed by offset: a standby that was away (dropped, restarted, or following the primary this
 * node took over from) and applied the stream up to an offset the backlog still reaches resumes
 * from there instead of taking a full copy (Redis's replication backlog, in the binlog's own
 * frames). Offsets do not depend on how batches were merged for one standby or another, and every
 * batch ends where an engine turn's changes end, so a position is always between two frames.
 */
final class Backlog {
  private final long maxBytes;
  private final ArrayDeque<StandbyLink.Held> entries = new ArrayDeque<>();
  private long bytes;
  /** Every frame from this offset on is in the backlog (where the oldest kept entry starts). */
  private long startsAt;
  private long endsAt;

  /** @param startsAt the offset the backlog's first entry will start at */
  Backlog(long maxBytes, long startsAt) {
    this.maxBytes = maxBytes;
    this.startsAt = startsAt;
    this.endsAt = startsAt;
  }

  /** Adds the entry that continues the stream ({@code e.logged()} is where it ends). */
  void add(StandbyLink.Held e) {
    if (e.logged() - e.frames().length() != endsAt) {
      throw new IllegalArgumentException("an entry from offset " + (e.logged() - e.frames().length())
          + " after offset " + endsAt);
    }
    entries.add(e);
    bytes += e.frames().length();
    endsAt = e.logged();
    while (bytes > maxBytes && !entries.isEmpty()) {
      StandbyLink.Held dropped = entries.poll();
      bytes -= dropped.frames().length();
      startsAt = dropped.logged();
    }
  }

  /**
   * The frames a standby that applied the stream up to {@code offset} lacks, in order (the first
   * entry cut where that offset falls), or null when the backlog does not reach back that far or
   * the offset is beyond its end.
   */
  List<StandbyLink.Held> from(long offset) {
    if (offset < startsAt || offset > endsAt) {
      return null;
    }
    List<StandbyLink.Held> missing = new ArrayList<>();
    for (StandbyLink.Held e : entries) {
      if (e.logged() <= offset) {
        continue;
      }
      long entryStart = e.logged() - e.frames().length();
      if (entryStart < offset) {
        int cut = (int) (offset - entryStart);
        e = new StandbyLink.Held(e.first(), e.last(), e.logged(), e.frames().getBuffer(cut, e.frames().length()));
      }
      missing.add(e);
    }
    return missing;
  }

  long startsAt() {
    return startsAt;
  }

  long endsAt() {
    return endsAt;
  }

  long bytes() {
    return bytes;
  }

  /** The entries kept, oldest first: a promoted node's history for its own standbys. */
  List<StandbyLink.Held> entries() {
    return new ArrayList<>(entries);
  }
}
