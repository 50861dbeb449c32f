package io.github.vertxbeanstalkd.persistence;

import io.github.vertxbeanstalkd.persistence.BinlogRecord.JobSnapshot;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What replay found besides the jobs themselves (which went to its {@link ReplayTarget}): the
 * first id that may be issued, the segments kept and how the log was read. Only {@link
 * Replay#read}, for tools and tests, also holds every live job as a snapshot of its final state.
 */
public final class RecoveredLog {
  private static final Logger log = LoggerFactory.getLogger(RecoveredLog.class);
  /**
   * Where the newest segment ends: after it, a last record cut short by a crash ({@code bytesDropped}
   * up to the last byte that is not zero), or only the zeros of a segment made full size up front
   * that the server had no chance to cut ({@code bytesDropped} 0). The file is cut at {@code offset}.
   */
  public record TornTail(Path file, long offset, long bytesDropped) {
    /** Cuts the file (deletes it if not even its header is whole), with one warning if a record was torn. */
    void cut() throws IOException {
      if (bytesDropped > 0) {
        log.warn("binlog: {}: dropping a torn record at offset {} ({} bytes): the server stopped while "
            + "writing it", file, offset, bytesDropped);
      } else {
        log.info("binlog: {}: cutting the unused zeros after offset {}", file, offset);
      }
      if (offset < SegmentFile.HEADER_BYTES) {
        Files.delete(file);
        return;
      }
      try (FileChannel f = FileChannel.open(file, StandardOpenOption.WRITE)) {
        f.truncate(offset);
        f.force(true);
      }
    }
  }

  /** A segment kept on disk: its index and size once a torn tail is cut off. */
  record Segment(long index, Path file, long bytes) {}

  private final List<JobSnapshot> jobs;
  private final long[] baseSegments;
  private final int[] baseFrameBytes;
  private final List<Segment> segments;
  private final long nextJobId;
  private final long recordsRead;
  private final long damagedRegionsSkipped;
  private final long damagedBytesSkipped;
  private final TornTail tornTail;

  RecoveredLog(List<Segment> segments, long nextJobId, long recordsRead, long damagedRegionsSkipped,
      long damagedBytesSkipped, TornTail tornTail) {
    this(List.of(), new long[0], new int[0], segments, nextJobId, recordsRead, damagedRegionsSkipped,
        damagedBytesSkipped, tornTail);
  }

  private RecoveredLog(List<JobSnapshot> jobs, long[] baseSegments, int[] baseFrameBytes, List<Segment> segments,
      long nextJobId, long recordsRead, long damagedRegionsSkipped, long damagedBytesSkipped,
      TornTail tornTail) {
    this.jobs = jobs;
    this.baseSegments = baseSegments;
    this.baseFrameBytes = baseFrameBytes;
    this.segments = segments;
    this.nextJobId = nextJobId;
    this.recordsRead = recordsRead;
    this.damagedRegionsSkipped = damagedRegionsSkipped;
    this.damagedBytesSkipped = damagedBytesSkipped;
    this.tornTail = tornTail;
  }

  static RecoveredLog empty() {
    return new RecoveredLog(List.of(), 1, 0, 0, 0, null);
  }

  /** The same, holding the jobs {@code collected}. */
  RecoveredLog withJobs(CollectedJobs collected) {
    return new RecoveredLog(collected.jobs(), collected.baseSegments(), collected.baseFrameBytes(), segments,
        nextJobId, recordsRead, damagedRegionsSkipped, damagedBytesSkipped, tornTail);
  }

  /**
   * Live jobs in id order, when the replay collected them ({@link Replay#read}, {@link Binlog#open}
   * without a target); empty when they went to a {@link ReplayTarget}. Reserved jobs are ready,
   * delayed jobs keep their absolute deadline.
   */
  public List<JobSnapshot> jobs() {
    return jobs;
  }

  /** Above every id ever issued, even if every job was deleted since. */
  public long nextJobId() {
    return nextJobId;
  }

  public long recordsRead() {
    return recordsRead;
  }

  /** Damaged stretches skipped in recover mode (each may have held one or more records). */
  public long damagedRegionsSkipped() {
    return damagedRegionsSkipped;
  }

  public long damagedBytesSkipped() {
    return damagedBytesSkipped;
  }

  /** The torn last record, or null if the log ended cleanly. */
  public TornTail tornTail() {
    return tornTail;
  }

  /** The segment holding the snapshot the i-th job was rebuilt from. */
  long baseSegment(int i) {
    return baseSegments[i];
  }

  int baseFrameBytes(int i) {
    return baseFrameBytes[i];
  }

  List<Segment> segments() {
    return segments;
  }
}
