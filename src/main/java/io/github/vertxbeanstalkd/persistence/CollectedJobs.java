package io.github.vertxbeanstalkd.persistence;

import io.github.vertxbeanstalkd.persistence.BinlogRecord.JobSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * A {@link ReplayTarget} that keeps every live job on the heap, in id order, with the segment its
 * snapshot is stored in: for tools and tests that look at a log's jobs, never for a server's
 * start-up (whose jobs go straight to the off-heap store).
 */
final class CollectedJobs implements ReplayTarget {
  /** A live job and where its snapshot is stored. */
  private record Based(JobSnapshot job, long segment, int frameBytes) {}

  private final TreeMap<Long, Based> live = new TreeMap<>();

  @Override
  public void snapshot(JobSnapshot job, long segment, int frameBytes) {
    // The body is lent from the segment's bytes: kept, it gets an array of its own.
    JobSnapshot kept = new JobSnapshot(job.id(), job.tube(), job.state(), job.priority(), job.delaySeconds(),
        job.readyAtEpochMillis(), job.ttrSeconds(), job.createdEpochMillis(), job.counters(), job.body().toArray());
    live.put(job.id(), new Based(kept, segment, frameBytes));
  }

  @Override
  public void change(long id, BinlogRecord change) {
    Based b = live.get(id);
    if (b != null) {
      live.put(id, new Based(Replay.changed(b.job(), change), b.segment(), b.frameBytes()));
    }
  }

  @Override
  public void delete(long id) {
    live.remove(id);
  }

  List<JobSnapshot> jobs() {
    List<JobSnapshot> jobs = new ArrayList<>(live.size());
    live.values().forEach(b -> jobs.add(b.job()));
    return jobs;
  }

  long[] baseSegments() {
    return live.values().stream().mapToLong(Based::segment).toArray();
  }

  int[] baseFrameBytes() {
    return live.values().stream().mapToInt(Based::frameBytes).toArray();
  }
}
