package io.github.vertxbeanstalkd.replication.shipping;

import java.util.List;

/**
 * What a node held of the stream it followed when it took over (Redis PSYNC2's replid2): that
 * term, the offset it applied it up to, where its own stream goes on from, and the last frames it
 * applied, so that another standby of that term at an offset within them resumes on it.
 *
 * @param frames the frames applied just before the take-over, oldest first, ending at {@code offset}
 */
public record PriorStream(long term, long offset, List<StandbyLink.Held> frames) {
  /** A node that followed no stream: its own starts at offset 0, and no one resumes across it. */
  static final PriorStream NONE = new PriorStream(-1, 0, List.of());

  /** Where the kept frames start: a standby of {@link #term} at an offset from here to {@link #offset} resumes. */
  long startsAt() {
    return frames.isEmpty() ? offset : frames.get(0).logged() - frames.get(0).frames().length();
  }
}
