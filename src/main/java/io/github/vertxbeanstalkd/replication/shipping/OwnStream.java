package io.github.vertxbeanstalkd.replication.shipping;

import io.github.vertxbeanstalkd.persistence.BinlogRecord;
import io.github.vertxbeanstalkd.persistence.RecordScan;
import io.github.vertxbeanstalkd.persistence.Replay;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The stream a node wrote as primary before it stopped, as its own log holds it: claimed from its
 * {@link StreamAnchors} at start, before its log can change. From it the node learns how far its
 * log goes in that stream (to resume where the new primary's history holds all of it), and which
 * jobs its log changed past a given offset (its diverged tail, to fetch again from the new primary
 * instead of a full copy). The segments from the oldest anchor on are kept by a second name (a hard
 * link) until {@link #release}: compaction may delete a segment whose jobs are all gone as soon as
 * the server starts, and those are the records a rewind reads. Blocking: call it off the event loop.
 */
public final class OwnStream {
  /** A tail that touched more jobs than this is not rewound: a full copy costs about as much. */
  static final int MAX_REWOUND_JOBS = 1 << 20;

  private final Path dir;
  private final long term;
  private final List<StreamAnchors.Anchor> anchors;
  /** The first segment this run writes: the scan ends before it. */
  private final long endSegment;
  /** Whether the segments are read through their kept names ({@link #TAIL_PREFIX}). */
  private final boolean isKept;
  /** The second names of the segments a rewind reads: this prefix and the segment's index. */
  static final String TAIL_PREFIX = "replication-tail.";

  OwnStream(Path dir, long term, List<StreamAnchors.Anchor> anchors, long endSegment, boolean isKept) {
    this.dir = dir;
    this.term = term;
    this.anchors = anchors;
    this.endSegment = endSegment;
    this.isKept = isKept;
  }

  /**
   * Reads and deletes the anchors the last run left in {@code binlogDir}: call it before the
   * server's engine opens the log. Null when there are none (that run was not primary, or stepped
   * down, or the directory holds no log).
   */
  public static OwnStream claim(Path binlogDir) throws IOException {
    if (binlogDir == null) {
      return null;
    }
    deleteKeptSegments(binlogDir);
    StreamAnchors file = new StreamAnchors(binlogDir);
    StreamAnchors.Kept kept = file.read();
    if (kept == null) {
      return null;
    }
    long end = RecordScan.segmentsEnd(binlogDir);
    boolean isKept = true;
    try {
      for (long i = kept.anchors().get(0).position().segment(); i < end; i++) {
        Path segment = RecordScan.segmentPath(binlogDir, i);
        if (Files.exists(segment)) {
          Files.createLink(binlogDir.resolve(TAIL_PREFIX + i), segment);
        }
      }
    } catch (IOException | UnsupportedOperationException e) {
      // A file system without hard links: the segments are read by their own names, while they last.
      isKept = false;
      deleteKeptSegments(binlogDir);
    }
    // Deleted before this run writes anything: a crash of this run before it rejoins leaves none,
    // so a later run never reads these anchors over records this run appended.
    file.delete();
    return new OwnStream(binlogDir, kept.term(), kept.anchors(), end, isKept);
  }

  /** The segments' second names are no longer needed: compaction's deletes take effect. */
  void release() throws IOException {
    deleteKeptSegments(dir);
  }

  private static void deleteKeptSegments(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (DirectoryStream<Path> kept = Files.newDirectoryStream(dir, TAIL_PREFIX + "*")) {
      for (Path p : kept) {
        Files.deleteIfExists(p);
      }
    }
  }

  private Path segment(long index) {
    return isKept ? dir.resolve(TAIL_PREFIX + index) : RecordScan.segmentPath(dir, index);
  }

  long term() {
    return term;
  }

  /**
   * The offset of that stream where this node's log ends (records lost to the crash are not in
   * it), or -1 when the log cannot be read from any anchor on.
   */
  long end() throws IOException {
    for (int i = anchors.size() - 1; i >= 0; i--) {
      StreamAnchors.Anchor a = anchors.get(i);
      long[] bytes = {0};
      if (RecordScan.scan(this::segment, a.position(), endSegment, (r, frameBytes) -> bytes[0] += frameBytes)) {
        return a.offset() + bytes[0];
      }
    }
    return -1;
  }

  /**
   * The ids of the jobs this node's log changed after {@code offset} of that stream, sorted,
   * without repeats; null when the log cannot tell (no anchor at or before it can be read, the
   * offset falls inside a record, or more than {@link #MAX_REWOUND_JOBS} were touched).
   */
  long[] touchedAfter(long offset) throws IOException {
    StreamAnchors.Anchor from = null;
    for (StreamAnchors.Anchor a : anchors) {
      if (a.offset() <= offset) {
        from = a;
      }
    }
    if (from == null) {
      return null;
    }
    long[] at = {from.offset()};
    boolean[] meets = {from.offset() == offset};
    long[][] ids = {new long[256]};
    int[] n = {0};
    boolean[] tooMany = {false};
    boolean read = RecordScan.scan(this::segment, from.position(), endSegment, (r, frameBytes) -> {
      at[0] += frameBytes;
      if (at[0] == offset) {
        meets[0] = true;
      }
      // A settings table names no job: the primary's own table reaches this node in the stream.
      if (at[0] <= offset || r instanceof BinlogRecord.HighWater || r instanceof BinlogRecord.TubeSettingsTable
          || tooMany[0]) {
        return;
      }
      if (n[0] == MAX_REWOUND_JOBS) {
        tooMany[0] = true;
        return;
      }
      if (n[0] == ids[0].length) {
        ids[0] = Arrays.copyOf(ids[0], n[0] * 2);
      }
      ids[0][n[0]++] = r instanceof BinlogRecord.JobSnapshot j ? j.id() : Replay.idOf(r);
    });
    if (!read || !meets[0] || tooMany[0]) {
      return null;
    }
    long[] sorted = Arrays.copyOf(ids[0], n[0]);
    Arrays.sort(sorted);
    int unique = 0;
    for (int i = 0; i < sorted.length; i++) {
      if (i == 0 || sorted[i] != sorted[i - 1]) {
        sorted[unique++] = sorted[i];
      }
    }
    return Arrays.copyOf(sorted, unique);
  }
}
