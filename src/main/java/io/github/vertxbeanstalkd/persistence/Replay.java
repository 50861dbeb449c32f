package io.github.vertxbeanstalkd.persistence;

import io.github.vertxbeanstalkd.persistence.BinlogRecord.Bury;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Delete;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.HighWater;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.JobSnapshot;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Kick;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Release;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.Reserve;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a binlog directory back into the jobs it describes, one record at a time, into a {@link
 * ReplayTarget}: at start-up the engine's off-heap job store, so that the heap a replay takes does
 * not grow with the jobs (the last record of a job wins because each record is applied over the
 * ones before it, in log order, as the server applied them). Read-only: cutting a torn tail off is
 * left to {@link Binlog#open}, which holds the directory lock.
 *
 * <p>The newest segment may have been made full size up front: from its first zero record header
 * on, nothing but zeros, the log ends there. A bad record is a torn tail only at the very end of
 * the newest segment, with no good record after it, and only if it runs past the end of the file
 * or the file ends in a zero-filled sector (what an interrupted append leaves). Anything else is
 * damage: start-up refuses, naming file and offset, unless {@code recover} is set, in which case
 * the damaged record alone is skipped ({@link Resync} finds where the next one starts) and counted.
 * A damaged record is never returned as job data: every record is checked against its CRC32C
 * before it is decoded.
 */
public final class Replay {
  private static final Logger log = LoggerFactory.getLogger(Replay.class);
  /** Torn writes happen in whole disk sectors. */
  private static final int SECTOR_BYTES = 512;

  private final boolean isRecoverEnabled;
  private final ReplayTarget target;
  /** The log's account of live jobs per segment, kept as the records come; null when only read. */
  private final SegmentLedger ledger;
  private final List<RecoveredLog.Segment> segments = new ArrayList<>();
  private long nextJobId = 1;
  private long recordsRead;
  private long damagedRegions;
  private long damagedBytes;
  private RecoveredLog.TornTail tornTail;
  /** The segment being read, lent to the target body by body; see {@link #readIntoBuffer}. */
  private byte[] buffer = new byte[0];

  private Replay(boolean isRecoverEnabled, ReplayTarget target, SegmentLedger ledger) {
    this.isRecoverEnabled = isRecoverEnabled;
    this.target = target;
    this.ledger = ledger;
  }

  /**
   * Replays every segment in {@code dir}, oldest first, and returns the live jobs in id order, all
   * held on the heap: for tools and tests. A server replays with {@link #into}.
   *
   * @param recover skip damaged records (counted in the result) instead of refusing
   * @throws BinlogDamageException when the log is damaged and {@code recover} is false
   * @throws IOException when the files cannot be read, were written by another format version, or
   *     the newest segment's index is above {@link SegmentFile#MAX_INDEX}
   */
  public static RecoveredLog read(Path dir, boolean recover) throws IOException {
    CollectedJobs jobs = new CollectedJobs();
    return into(dir, recover, jobs, null).withJobs(jobs);
  }

  /**
   * Replays every segment in {@code dir}, oldest first, record by record into {@code target}, and
   * into {@code ledger} (when not null) which segments hold each live job's snapshot. Heap use is
   * one segment's bytes and the record at hand, whatever the number of jobs.
   *
   * @see #read
   */
  static RecoveredLog into(Path dir, boolean recover, ReplayTarget target, SegmentLedger ledger)
      throws IOException {
    if (!Files.isDirectory(dir)) {
      return RecoveredLog.empty();
    }
    Replay replay = new Replay(recover, target, ledger);
    List<Path> files = SegmentFile.list(dir);
    if (!files.isEmpty() && SegmentFile.indexOf(files.get(files.size() - 1)) > SegmentFile.MAX_INDEX) {
      // Refused even in recover mode, like another format version: the ledger could not hold the
      // index, and ignoring the file would leave it to be read by a later start after all.
      throw new IOException("binlog: " + files.get(files.size() - 1) + ": a segment index above "
          + SegmentFile.MAX_INDEX + ", the highest this server starts on; move the file away if it is not "
          + "one of this log's");
    }
    for (int i = 0; i < files.size(); i++) {
      long index = SegmentFile.indexOf(files.get(i));
      if (i > 0 && index != SegmentFile.indexOf(files.get(i - 1)) + 1) {
        // Segments are deleted oldest first, so a hole means a file was lost.
        replay.damage(SegmentFile.path(dir, index - 1), 0, "segment file missing", 0);
      }
      replay.readSegment(files.get(i), index, i == files.size() - 1);
    }
    if (replay.damagedRegions > 0) {
      log.warn("binlog: recover: skipped {} damaged region(s), {} bytes; jobs stored there are lost",
          replay.damagedRegions, replay.damagedBytes);
    }
    return replay.result();
  }

  private void readSegment(Path file, long index, boolean isLast) throws IOException {
    int end = readIntoBuffer(file);
    byte[] data = buffer;
    int p = SegmentFile.HEADER_BYTES;
    String headerProblem = end < SegmentFile.HEADER_BYTES ? "short" : SegmentFile.headerProblem(data, index);
    if (headerProblem != null) {
      // The damaged paths read the segment to its array's end: give them the segment's bytes alone.
      data = Arrays.copyOf(buffer, end);
      headerProblem = SegmentFile.headerProblem(data, index);
      if (SegmentFile.isOtherVersion(data)) {
        throw new IOException("binlog: " + file + " was written in " + headerProblem
            + "; this server reads format version " + SegmentFile.FORMAT_VERSION);
      }
      int resume = Resync.afterHeader(data);
      if (isTornTail(data, 0, resume, end < SegmentFile.HEADER_BYTES, isLast)) {
        tornTail = new RecoveredLog.TornTail(file, 0, writtenBytesFrom(data, 0));
        return;
      }
      damage(file, 0, headerProblem, resume);
      p = resume;
    }
    if (ledger != null) {
      ledger.open(index, 0);
    }
    while (p < end) {
      // Bodies are lent from the segment's bytes: the target stores each one before the next segment.
      RecordCodec.Frame f = RecordCodec.readLendingBodies(data, p, end);
      if (f.record() != null) {
        apply(f.record(), index, f.frameBytes());
        recordsRead++;
        p += f.frameBytes();
        continue;
      }
      if (data.length != end) {
        data = Arrays.copyOf(buffer, end);
      }
      int resume = Resync.afterFrame(data, p);
      if (isTornTail(data, p, resume, f.isIncomplete(), isLast)) {
        // Zeros alone are the unused, preallocated rest of the segment: 0 bytes dropped.
        tornTail = new RecoveredLog.TornTail(file, p, writtenBytesFrom(data, p));
        end = p;
      } else {
        damage(file, p, f.problem(), resume - p);
        p = resume;
      }
    }
    segments.add(new RecoveredLog.Segment(index, file, end));
    if (ledger != null) {
      ledger.grow(end);
    }
  }

  private void damage(Path file, long offset, String problem, long bytes) throws BinlogDamageException {
    BinlogDamageException e = new BinlogDamageException(file, offset, problem);
    if (!isRecoverEnabled) {
      throw e;
    }
    log.warn("binlog: recover: skipping {} bytes at {} offset {}: {}", bytes, file, offset, problem);
    damagedRegions++;
    damagedBytes += bytes;
  }

  /**
   * True for what an append cut short by a crash leaves: in the newest segment, no good record
   * after the bad one ({@code resume} is where {@link Resync} would go on), and the bad one runs
   * past the end of the file or the file ends in a sector of zeros.
   */
  /**
   * Reads the whole segment into {@link #buffer}, grown when it is too small and otherwise kept from
   * segment to segment: one array for the whole replay, not one of the segment's size (10 MiB by
   * default) per segment, which made the replay of a 1.2 GB log allocate 1.2 GB of heap.
   *
   * @return the segment's length in bytes
   */
  private int readIntoBuffer(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      if (size > Integer.MAX_VALUE - 8) {
        throw new IOException("binlog: " + file + " is " + size + " bytes, more than a segment can be");
      }
      if (buffer.length < size) {
        buffer = new byte[(int) size];
      }
      ByteBuffer into = ByteBuffer.wrap(buffer, 0, (int) size);
      while (into.hasRemaining() && channel.read(into) >= 0) {
        // read until the end of the file as it was sized; a shorter file ends the loop
      }
      return into.position();
    }
  }

  private static boolean isTornTail(byte[] data, int offset, int resume, boolean isIncomplete,
      boolean isLastSegment) {
    if (!isLastSegment || RecordCodec.isFrameAt(data, resume, data.length)) {
      return false;
    }
    if (isIncomplete) {
      return true;
    }
    int lastSector = Math.max(offset, (data.length - 1) / SECTOR_BYTES * SECTOR_BYTES);
    for (int i = lastSector; i < data.length; i++) {
      if (data[i] != 0) {
        return false;
      }
    }
    return true;
  }

  /** Bytes from {@code offset} up to the last one that is not zero: what a crash may have torn. */
  private static long writtenBytesFrom(byte[] data, int offset) {
    return Math.max(0, Resync.lastNonZero(data) + 1 - offset);
  }

  private void apply(BinlogRecord r, long segment, int frameBytes) {
    if (r instanceof HighWater h) {
      nextJobId = Math.max(nextJobId, h.nextJobId());
      return;
    }
    if (r instanceof BinlogRecord.TubeSettingsTable t) {
      target.tubeSettings(t);
      return;
    }
    if (r instanceof BinlogRecord.DeadLetterNote n) {
      target.deadLetterNote(n);
      return;
    }
    if (r instanceof JobSnapshot j) {
      target.snapshot(j, segment, frameBytes);
      if (ledger != null) {
        ledger.rebase(j.id(), frameBytes);
      }
      nextJobId = Math.max(nextJobId, j.id() + 1);
      return;
    }
    long id = idOf(r);
    nextJobId = Math.max(nextJobId, id + 1);
    // A change to an unknown job was superseded: the job was deleted or rewritten further on; the
    // target ignores it.
    if (r instanceof Delete) {
      // The ledger first: the job's base may be kept in the target's record of it.
      if (ledger != null) {
        ledger.forget(id);
      }
      target.delete(id);
    } else {
      target.change(id, r);
    }
  }

  /**
   * What a job is after a change record of it (release, bury, kick, reserve): the one meaning of
   * the log's records, for a replay and for a standby that applies a primary's records as they come.
   * A reserve-job of a delayed or buried job comes back ready, as after a restart.
   */
  public static JobSnapshot changed(JobSnapshot j, BinlogRecord r) {
    if (r instanceof Release rel) {
      SnapshotState state = rel.delaySeconds() == 0 ? SnapshotState.READY : SnapshotState.DELAYED;
      return j.withChange(state, rel.priority(), rel.delaySeconds(),
          state == SnapshotState.DELAYED ? rel.readyAtEpochMillis() : 0, rel.counters());
    } else if (r instanceof Bury b) {
      return j.withChange(SnapshotState.BURIED, b.priority(), j.delaySeconds(), 0, b.counters());
    } else if (r instanceof Kick k) {
      return j.withChange(SnapshotState.READY, j.priority(), j.delaySeconds(), 0, k.counters());
    } else if (r instanceof Reserve res) {
      return j.withChange(SnapshotState.READY, j.priority(), j.delaySeconds(), 0, res.counters());
    }
    throw new IllegalArgumentException("not a change of a job: " + r);
  }

  /** The id of the job a change or delete record names. */
  public static long idOf(BinlogRecord r) {
    if (r instanceof Delete d) {
      return d.id();
    } else if (r instanceof Release rel) {
      return rel.id();
    } else if (r instanceof Bury b) {
      return b.id();
    } else if (r instanceof Kick k) {
      return k.id();
    } else if (r instanceof BinlogRecord.DeadLetterNote n) {
      return n.id();
    }
    return ((Reserve) r).id();
  }

  private RecoveredLog result() {
    return new RecoveredLog(segments, nextJobId, recordsRead, damagedRegions, damagedBytes, tornTail);
  }
}
