package io.github.vertxbeanstalkd.persistence;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.function.LongFunction;

/**
 * Reads the records a binlog holds from a {@link LogPosition} on, oldest first, without applying
 * them: the records a server appended after that point, in the order it appended them, leaving out
 * the high-water mark every segment starts with (the log writes it, no change does). Read-only and
 * blocking; heap use is one segment's bytes. For segments no writer appends to any more.
 */
public final class RecordScan {
  /** Hears each record; the record's body is lent and must not be kept. */
  public interface Visitor {
    void record(BinlogRecord record, int frameBytes);
  }

  private RecordScan() {}

  /** Where segment {@code index} of the log in {@code dir} is. */
  public static Path segmentPath(Path dir, long index) {
    return SegmentFile.path(dir, index);
  }

  /**
   * The index just past the segments in {@code dir} that hold records: a server started now writes
   * only at or above it (a newest segment torn inside its header is written again under its own
   * index, so it is left out). 1 for a directory with no segment.
   */
  public static long segmentsEnd(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return 1;
    }
    java.util.List<Path> files = SegmentFile.list(dir);
    if (files.isEmpty()) {
      return 1;
    }
    Path newest = files.get(files.size() - 1);
    long index = SegmentFile.indexOf(newest);
    byte[] header;
    try (java.io.InputStream in = Files.newInputStream(newest)) {
      header = in.readNBytes(SegmentFile.HEADER_BYTES);
    }
    return SegmentFile.headerProblem(header, index) == null ? index + 1 : index;
  }

  /**
   * Visits the records from {@code from} up to the end of segment {@code endSegment - 1}.
   *
   * @return false when the log cannot be read as it was written from there: a segment missing (a
   *     compaction deleted it), one shorter than {@code from} says, or a damaged record anywhere but
   *     at the very end (where replay found the log's end); the visitor may have heard records
   */
  public static boolean scan(Path dir, LogPosition from, long endSegment, Visitor visitor) throws IOException {
    return scan(index -> SegmentFile.path(dir, index), from, endSegment, visitor);
  }

  /** As {@link #scan(Path, LogPosition, long, Visitor)}, segment {@code i} read from {@code files.apply(i)}. */
  public static boolean scan(LongFunction<Path> files, LogPosition from, long endSegment, Visitor visitor)
      throws IOException {
    for (long index = from.segment(); index < endSegment; index++) {
      byte[] data;
      try {
        data = Files.readAllBytes(files.apply(index));
      } catch (NoSuchFileException e) {
        return false;
      }
      if (SegmentFile.headerProblem(data, index) != null) {
        return false;
      }
      boolean isFirst = index == from.segment();
      boolean isLast = index == endSegment - 1;
      long start = isFirst ? from.bytes() : SegmentFile.HEADER_BYTES;
      if (start > data.length || start < SegmentFile.HEADER_BYTES) {
        return false;
      }
      int p = (int) start;
      boolean isHead = !isFirst;
      while (p < data.length) {
        RecordCodec.Frame f = RecordCodec.readLendingBodies(data, p, data.length);
        if (f.record() == null) {
          // Zeros ahead or a torn tail: where replay found the end of the log, in the newest segment only.
          if (isLast) {
            break;
          }
          return false;
        }
        if (isHead) {
          isHead = false;
          if (!(f.record() instanceof BinlogRecord.HighWater)) {
            return false;
          }
        } else {
          visitor.record(f.record(), f.frameBytes());
        }
        p += f.frameBytes();
      }
    }
    return true;
  }
}
