package io.github.vertxbeanstalkd.persistence;

import io.github.vertxbeanstalkd.persistence.WriterTask.Append;
import io.github.vertxbeanstalkd.persistence.WriterTask.AppendFrames;
import io.github.vertxbeanstalkd.persistence.WriterTask.DeleteSegment;
import io.github.vertxbeanstalkd.persistence.WriterTask.StartSegment;
import io.github.vertxbeanstalkd.persistence.WriterTask.Stop;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread that writes and fsyncs the log, so the engine's event loop never waits for a disk.
 * Group commit: it takes every task queued, writes the records, fsyncs once (policy always), and
 * reports the highest sequence. With an interval policy, a timer fsyncs every write within the
 * interval even when no more work comes. A write that fails for lack of space is cut back and
 * retried once there is room ({@link SpaceReserve}); any other write error, and any fsync error,
 * stops the writer for good: after a failed fsync the kernel may have dropped the dirty pages, so
 * nothing written since the last good fsync can be trusted.
 *
 * <p>Under policy always the writer keeps zeros written ahead of the records, {@link #ZERO_AHEAD_BYTES}
 * at a time up to the segment size, and cuts a segment to its records when it is finished: appends
 * then overwrite instead of growing the file, so most fsyncs (fdatasync) write the data alone, not
 * also the inode with the file's new size or newly allocated blocks. On ext4 that inode write is a
 * second, serial trip to the disk per fsync. Replay reads the zeros after the last record as the end
 * of the log (FORMAT.md).
 */
final class LogWriter implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(LogWriter.class);
  /** Encoded records held in memory before a write, so a burst of big jobs stays bounded. */
  private static final long MAX_PENDING_BYTES = 4L * 1024 * 1024;
  /**
   * Zeros written ahead at a time: the fsync that carries them costs about 1 ms more (measured on
   * a virtio disk), once per 5,000 puts of 100 bytes; smaller steps cost more in sum, as each also
   * writes the inode.
   */
  static final long ZERO_AHEAD_BYTES = 1024 * 1024;

  private final LinkedBlockingQueue<WriterTask> queue = new LinkedBlockingQueue<>();
  private final LogFiles files;
  private final Path dir;
  private final FsyncPolicy policy;
  private final SpaceReserve reserve;
  /** Usable space needed, besides the reserve, before puts are accepted again. */
  private final long resumeBytes;
  private final long retryNanos;
  private final WriterReports reports;
  /** Where writing zeros ahead stops in a segment: its size under policy always, else 0 (never). */
  private final long zeroFillEnd;

  private final ArrayList<WriterTask> batch = new ArrayList<>();
  private final ArrayList<ByteBuffer> pending = new ArrayList<>();
  private final ArrayList<Long> pendingSequences = new ArrayList<>();
  private long pendingBytes;
  private long highestWritten;
  private long highestReported;
  private LogFiles.LogFile current;
  /** Bytes in the current file that are whole records (or the header). */
  private long position;
  /** The current file's size: whole records, then zeros written ahead of them (never less than position). */
  private long zeroedTo;
  private boolean isDirty;
  private long dirtySinceNanos;
  private boolean isDiskFull;
  private long nextSpaceCheckNanos;

  LogWriter(LogFiles files, Path dir, FsyncPolicy policy, long segmentSizeBytes, SpaceReserve reserve,
      long resumeBytes, long retryMillis, WriterReports reports) {
    this.files = files;
    this.dir = dir;
    this.policy = policy;
    this.reserve = reserve;
    this.resumeBytes = resumeBytes;
    this.retryNanos = TimeUnit.MILLISECONDS.toNanos(retryMillis);
    this.reports = reports;
    // Only always fsyncs often enough for the inode write to matter. Under the other policies
    // records not yet fsynced are acknowledged, and a power cut could leave a hole of zeros among
    // them before records that did land (overwritten pages reach the disk in no particular order;
    // a growing file's size follows its data on a journaling file system), which replay would have
    // to report as damage.
    this.zeroFillEnd = policy instanceof FsyncPolicy.Always ? segmentSizeBytes : 0;
  }

  /** Any thread; the engine thread in practice. */
  void submit(WriterTask task) {
    queue.add(task);
  }

  @Override
  public void run() {
    try {
      if (!reserve.ensure()) {
        enterDiskFull();
      }
      boolean isStopped = false;
      while (!isStopped) {
        WriterTask first = next();
        if (first != null) {
          batch.add(first);
          queue.drainTo(batch);
          isStopped = runBatch();
          batch.clear();
        }
        onTimer();
      }
    } catch (InterruptedException e) {
      log.warn("binlog: writer stopped with {} tasks not done", queue.size() + batch.size());
    } catch (IOException | RuntimeException e) {
      log.error("binlog: write failed; no further change will be acknowledged", e);
      reports.failed(e);
    } finally {
      closeCurrent();
    }
  }

  private WriterTask next() throws InterruptedException {
    long wakeNanos = Long.MAX_VALUE;
    if (isDirty && policy instanceof FsyncPolicy.Interval interval) {
      wakeNanos = dirtySinceNanos + TimeUnit.MILLISECONDS.toNanos(interval.millis());
    }
    if (isDiskFull) {
      wakeNanos = Math.min(wakeNanos, nextSpaceCheckNanos);
    }
    if (wakeNanos == Long.MAX_VALUE) {
      return queue.take();
    }
    long waitNanos = wakeNanos - System.nanoTime();
    return waitNanos <= 0 ? queue.poll() : queue.poll(waitNanos, TimeUnit.NANOSECONDS);
  }

  /** Returns true when a {@link Stop} was done. */
  private boolean runBatch() throws IOException, InterruptedException {
    boolean isStopped = false;
    for (WriterTask task : batch) {
      if (task instanceof Append a) {
        hold(RecordCodec.encode(a.record()), a.sequence());
      } else if (task instanceof AppendFrames f) {
        hold(ByteBuffer.wrap(f.data(), f.from(), f.to() - f.from()).slice(), f.lastSequence());
      } else {
        writePending();
        if (task instanceof StartSegment s) {
          startSegment(s.index());
        } else if (task instanceof DeleteSegment d) {
          // Only once the records that made it unneeded (migrations, deletes) are on disk.
          sync();
          files.delete(SegmentFile.path(dir, d.index()));
          files.syncDirectory(dir);
        } else if (task instanceof Stop) {
          isStopped = true;
        }
      }
    }
    long startedNanos = System.nanoTime();
    boolean wasDirty = !pending.isEmpty() || isDirty;
    writePending();
    if (policy instanceof FsyncPolicy.Always || isStopped) {
      sync();
      if (wasDirty && policy instanceof FsyncPolicy.Always) {
        // With O_DSYNC the write is the sync, so the batch's write and sync are timed together.
        reports.synced(System.nanoTime() - startedNanos);
      }
    }
    report(highestWritten);
    if (isStopped) {
      finishSegment();
    }
    return isStopped;
  }

  /** Frames to write, whole, in order; {@code sequence} is that of the last record in them. */
  private void hold(ByteBuffer frames, long sequence) throws IOException, InterruptedException {
    pending.add(frames);
    pendingSequences.add(sequence);
    pendingBytes += frames.remaining();
    if (pendingBytes >= MAX_PENDING_BYTES) {
      writePending();
    }
  }

  private void writePending() throws IOException, InterruptedException {
    if (pending.isEmpty()) {
      return;
    }
    ByteBuffer[] frames = pending.toArray(new ByteBuffer[0]);
    try {
      zeroAhead(position + pendingBytes);
      current.write(frames);
      written(pendingBytes);
    } catch (IOException e) {
      if (!SpaceReserve.isNoSpace(e)) {
        throw e;
      }
      // Cut off what part of the batch made it, then go record by record as room allows.
      cutBack();
      awaitSpace();
      for (int i = 0; i < frames.length; i++) {
        writeOne(frames[i].rewind());
        if (policy instanceof FsyncPolicy.Always) {
          sync();
        }
        report(pendingSequences.get(i));
      }
    }
    highestWritten = pendingSequences.get(pendingSequences.size() - 1);
    pending.clear();
    pendingSequences.clear();
    pendingBytes = 0;
  }

  private void report(long sequence) {
    if (sequence > highestReported) {
      highestReported = sequence;
      reports.written(sequence);
    }
  }

  private void writeOne(ByteBuffer frame) throws IOException, InterruptedException {
    while (true) {
      try {
        current.write(new ByteBuffer[] {frame});
        written(frame.limit());
        return;
      } catch (IOException e) {
        if (!SpaceReserve.isNoSpace(e)) {
          throw e;
        }
        cutBack();
        frame.rewind();
        awaitSpace();
      }
    }
  }

  private void written(long bytes) {
    position += bytes;
    zeroedTo = Math.max(zeroedTo, position);
    if (!isDirty) {
      isDirty = true;
      dirtySinceNanos = System.nanoTime();
    }
  }

  private void startSegment(long index) throws IOException, InterruptedException {
    finishSegment();
    Path file = SegmentFile.path(dir, index);
    while (current == null) {
      LogFiles.LogFile f = null;
      try {
        // Under always every batch is fsynced at once anyway: a file whose writes are durable
        // when they return saves the page cache's write-back on the way (DirectLogFile).
        f = zeroFillEnd > 0 ? files.createWriteThrough(file) : files.create(file);
        f.write(new ByteBuffer[] {SegmentFile.header(index)});
        current = f;
      } catch (IOException e) {
        if (f != null) {
          f.close();
          files.delete(file);
        }
        if (!SpaceReserve.isNoSpace(e)) {
          throw e;
        }
        awaitSpace();
      }
    }
    position = 0;
    zeroedTo = 0;
    written(SegmentFile.HEADER_BYTES);
    files.syncDirectory(dir);
  }

  /**
   * Cuts the current segment to its records and fsyncs it, whatever the policy, then closes it: only
   * the newest segment may then end in a torn record or in zeros written ahead, and replay can tell
   * a crash from damage.
   */
  private void finishSegment() throws IOException {
    if (current == null) {
      return;
    }
    // Under always the file may also hold zeros past zeroedTo: a write-through file pads its last
    // block (DirectLogFile), and that padding grows the file once records pass the zeros ahead (a
    // record larger than a segment, or a full disk).
    if (zeroedTo > position || zeroFillEnd > 0) {
      current.truncate(position);
      isDirty = true;
    }
    sync();
    closeCurrent();
  }

  /**
   * Makes sure the records up to {@code end} overwrite zeros, writing the next
   * {@link #ZERO_AHEAD_BYTES} when they would not. Past the segment size (a record bigger than a
   * segment), and when the disk is full, the file grows by appends instead.
   */
  private void zeroAhead(long end) throws IOException {
    if (end <= zeroedTo || zeroedTo >= zeroFillEnd || isDiskFull) {
      return;
    }
    long to = Math.min(zeroFillEnd, Math.max(end, zeroedTo + ZERO_AHEAD_BYTES));
    try {
      current.writeZeros(zeroedTo, to);
      zeroedTo = to;
    } catch (IOException e) {
      if (!SpaceReserve.isNoSpace(e)) {
        throw e;
      }
      // Not an error yet: the records may still fit, and the usual path handles it if they do not.
      cutBack();
    }
  }

  /** Cuts the current file back to its whole records, after a write that did not fully land. */
  private void cutBack() throws IOException {
    current.truncate(position);
    zeroedTo = position;
  }

  /** Out of space: give the reserve to the log, or wait and try again. */
  private void awaitSpace() throws IOException, InterruptedException {
    enterDiskFull();
    if (reserve.release()) {
      log.warn("binlog: disk full; using the space reserve for deletes, puts answer OUT_OF_MEMORY");
      return;
    }
    sync();
    Thread.sleep(TimeUnit.NANOSECONDS.toMillis(retryNanos));
  }

  private void enterDiskFull() {
    if (!isDiskFull) {
      isDiskFull = true;
      nextSpaceCheckNanos = System.nanoTime() + retryNanos;
      log.warn("binlog: disk full in {}; puts answer OUT_OF_MEMORY until there is room", dir);
      reports.diskFull();
    }
  }

  private void onTimer() throws IOException {
    long now = System.nanoTime();
    if (isDirty && policy instanceof FsyncPolicy.Interval interval
        && now - dirtySinceNanos >= TimeUnit.MILLISECONDS.toNanos(interval.millis())) {
      sync();
      reports.synced(System.nanoTime() - now);
    }
    if (isDiskFull && now - nextSpaceCheckNanos >= 0) {
      nextSpaceCheckNanos = now + retryNanos;
      if (files.usableSpace(dir) >= resumeBytes && reserve.ensure()) {
        isDiskFull = false;
        log.info("binlog: disk space available again in {}; puts accepted", dir);
        reports.spaceAvailable();
      }
    }
  }

  private void sync() throws IOException {
    if (isDirty && current != null) {
      current.force();
      isDirty = false;
    }
  }

  private void closeCurrent() {
    if (current != null) {
      try {
        current.close();
      } catch (IOException e) {
        log.warn("binlog: closing a segment failed", e);
      }
      current = null;
    }
  }
}
