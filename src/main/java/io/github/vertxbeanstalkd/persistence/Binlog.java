package io.github.vertxbeanstalkd.persistence;

import io.github.vertxbeanstalkd.persistence.BinlogRecord.Delete;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.HighWater;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.JobSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's write-ahead log. Every method but {@link #open} and {@link #close} is called on the
 * engine thread only and never blocks: {@link #append} does the bookkeeping (which segment a record
 * lands in, live jobs per segment, sizes) and queues the record for the {@link LogWriter} thread,
 * which writes and fsyncs and reports back through the engine-thread {@link Executor}. The engine
 * acknowledges a change once {@link BinlogListener#onDurable} reached its sequence.
 *
 * <p>Compaction: old segments are deleted oldest first once no live job is based in them. The
 * engine keeps that moving by rewriting the live jobs that {@link #jobsToMigrate} names as fresh
 * snapshots, which keeps the disk within about twice the live data plus two segments.
 */
public final class Binlog {
  private static final Logger log = LoggerFactory.getLogger(Binlog.class);
  private static final long[] NONE = new long[0];
  /** Header plus the high-water record every segment starts with. */
  private static final long SEGMENT_START_BYTES =
      SegmentFile.HEADER_BYTES + RecordCodec.frameBytes(new HighWater(1));
  static final long MAX_RESERVE_BYTES = 1024 * 1024;
  static final long DISK_FULL_RETRY_MILLIS = 1000;

  /** Whether changes can be made durable. */
  public enum Health {
    /** Everything is accepted. */
    WRITING,
    /** No room: puts, releases, buries and kicks answer OUT_OF_MEMORY; deletes still go through. */
    DISK_FULL,
    /** A write or fsync failed: nothing more is acknowledged. */
    FAILED
  }

  private final long segmentSizeBytes;
  private final BinlogListener listener;
  private final LogWriter writer;
  private final Thread writerThread;
  private final DirectoryLock lock;
  private final long reserveBytes;
  private final Path dir;
  private final boolean isRecoverRequested;
  private final SegmentLedger ledger = new SegmentLedger();
  private RecoveredLog recovered;
  private Health health = Health.WRITING;
  private long nextSequence = 1;
  private long durableSequence;
  private long nextJobIdFloor = 1;
  private long recordsWritten;
  private long recordsMigrated;
  /**
   * The tubes' settings in force, written again after the HighWater of every new segment so that
   * compaction never deletes the last table; null while no tube has settings.
   */
  private BinlogRecord.TubeSettingsTable standingSettings;
  /** After a recover start, every older segment is compacted away so the damage is gone. */
  private long migrateAllBelow;
  private boolean isClosed;
  /**
   * Frames appended as they came ({@link #appendFrame}), next to each other in one array and not yet
   * handed to the writer: {@code runFrames[runFrom, runTo)}, the last of sequence {@code runSequence}.
   */
  private byte[] runFrames;
  private int runFrom;
  private int runTo;
  private long runSequence;

  private Binlog(BinlogConfig config, Executor engineThread, BinlogListener listener, LogFiles files,
      DirectoryLock lock, long reserveBytes, long retryMillis) {
    this.segmentSizeBytes = config.segmentSizeBytes();
    this.listener = listener;
    this.lock = lock;
    this.reserveBytes = reserveBytes;
    this.dir = config.dir();
    this.isRecoverRequested = config.isRecoverRequested();
    this.recovered = RecoveredLog.empty();
    if (files == null) {
      writer = null;
      writerThread = null;
      recovered = RecoveredLog.empty();
      return;
    }
    SpaceReserve reserve = new SpaceReserve(files, config.dir(), reserveBytes);
    writer = new LogWriter(files, config.dir(), config.fsync(), segmentSizeBytes, reserve,
        reserveBytes + segmentSizeBytes, retryMillis, new EngineThreadReports(this, engineThread, listener));
    writerThread = new Thread(writer, "binlog-writer");
    writerThread.setDaemon(true);
  }

  /** No log: every append is durable at once; stats are 0. */
  public static Binlog inMemory(BinlogConfig config) {
    return new Binlog(config, Runnable::run, null, null, null, 0, 0);
  }

  /**
   * Locks the directory, replays it into a collection of every job (see {@link #takeRecovered()})
   * and starts the writer: for tests and tools, since the jobs are held on the heap. A server
   * replays straight into its job store: {@link #lock}, then {@link #replay}.
   *
   * @param engineThread runs a task on the engine thread, for example
   *     {@code t -> context.runOnContext(v -> t.run())}
   * @throws BinlogDamageException when the log is damaged and recovery was not asked for
   * @throws IOException when the directory is locked by another server or cannot be read
   */
  public static Binlog open(BinlogConfig config, Executor engineThread, BinlogListener listener)
      throws IOException {
    return lock(config, engineThread, listener).collect();
  }

  /**
   * Locks the directory for a server's start: nothing is read or written until {@link #replay}
   * brings the jobs back into the engine. Blocks: call it off the event loop. With no directory
   * configured, an {@link #inMemory} log, whose replay finds nothing.
   *
   * @throws IOException when the directory is locked by another server or cannot be made
   */
  public static Binlog lock(BinlogConfig config, Executor engineThread, BinlogListener listener)
      throws IOException {
    if (!config.isEnabled()) {
      return inMemory(config);
    }
    long reserve = Math.min(MAX_RESERVE_BYTES, config.segmentSizeBytes());
    return lock(config, engineThread, listener, DiskLogFiles.INSTANCE, reserve, DISK_FULL_RETRY_MILLIS);
  }

  static Binlog open(BinlogConfig config, Executor engineThread, BinlogListener listener, LogFiles files,
      long reserveBytes, long retryMillis) throws IOException {
    return lock(config, engineThread, listener, files, reserveBytes, retryMillis).collect();
  }

  /** Replays into a collection of every job, kept for {@link #takeRecovered()}; a log in memory has none. */
  private Binlog collect() throws IOException {
    if (writer != null) {
      CollectedJobs jobs = new CollectedJobs();
      recovered = replay(jobs).withJobs(jobs);
    }
    return this;
  }

  static Binlog lock(BinlogConfig config, Executor engineThread, BinlogListener listener, LogFiles files,
      long reserveBytes, long retryMillis) throws IOException {
    Files.createDirectories(config.dir());
    DirectoryLock lock = DirectoryLock.acquire(config.dir());
    try {
      return new Binlog(config, engineThread, listener, files, lock, reserveBytes, retryMillis);
    } catch (RuntimeException e) {
      lock.close();
      throw e;
    }
  }

  /**
   * Reads the log back, record by record, into {@code target} (and this log's own account of which
   * segment holds each live job), cuts a torn tail off and starts the writer. The heap it takes is
   * one segment's bytes, whatever the number of jobs. Once only, before any {@link #append}; blocks,
   * so off the event loop, and on the thread that owns {@code target} until the writer runs. A log
   * {@link #inMemory} finds nothing. On failure the directory is unlocked.
   *
   * @throws BinlogDamageException when the log is damaged and recovery was not asked for
   * @throws IOException when the files cannot be read
   */
  public RecoveredLog replay(ReplayTarget target) throws IOException {
    if (writer == null) {
      return RecoveredLog.empty();
    }
    if (!ledger.isEmpty() || writerThread.isAlive()) {
      throw new IllegalStateException("binlog: replayed already");
    }
    try {
      RecoveredLog found = Replay.into(dir, isRecoverRequested, new SettingsKept(target), ledger);
      if (found.tornTail() != null) {
        found.tornTail().cut();
      }
      start(found, SegmentFile.highestNamedIndex(dir));
      return found;
    } catch (IOException | RuntimeException e) {
      ledger.close();
      if (lock != null) {
        lock.close();
      }
      throw e;
    }
  }

  /**
   * @param taken the highest index an entry of the directory is named for (see {@link
   *     SegmentFile#highestNamedIndex}), 0 for a log that keeps no files
   */
  private void start(RecoveredLog found, long taken) {
    // Segments lost before a recover start (a hole) leave a gap in the indexes, which the ledger
    // keeps: an empty stand-in per missing index would be millions of them after one stray file
    // named like a segment far ahead (say a copy named binlog.20261125).
    long index = found.segments().isEmpty() ? 0 : found.segments().get(found.segments().size() - 1).index();
    nextJobIdFloor = found.nextJobId();
    // A newest segment torn inside its header is written again under its own index.
    long first = found.tornTail() != null && found.tornTail().offset() < SegmentFile.HEADER_BYTES
        ? SegmentFile.indexOf(found.tornTail().file()) : index + 1;
    // An entry named like a segment that replay could not read (a directory in a segment's place)
    // still takes its name: the first new segment goes past it, not onto it. One at MAX_INDEX or
    // above is out of this log's reach anyway.
    if (taken >= first && taken < SegmentFile.MAX_INDEX) {
      first = taken + 1;
    }
    if (found.damagedRegionsSkipped() > 0) {
      migrateAllBelow = first;
    }
    writerThread.start();
    startSegment(first);
    deleteUnneeded();
  }

  /**
   * From now on the log keeps each live job's base (which segment holds its snapshot) in {@code
   * bases}, the engine's own records, instead of an index of its own: before {@link #replay}.
   */
  public void keepBasesIn(JobBases bases) {
    ledger.keepBasesIn(bases);
  }

  /** Whether {@link #keepBasesIn} may be called: a log on disk whose ledger holds no job yet. */
  public boolean keepsBasesOfItsOwn() {
    return writer != null && ledger.mayMoveBases();
  }

  /** What {@link #open} collected, once; the memory is freed after. Empty after {@link #replay}. */
  public RecoveredLog takeRecovered() {
    RecoveredLog r = recovered;
    recovered = RecoveredLog.empty();
    return r;
  }

  /**
   * Queues {@code r}; returns its sequence, to be compared with {@link #durableSequence()}. In memory
   * only, records are numbered all the same (a replicated primary waits for its standbys by them)
   * and always durable.
   *
   * @throws IllegalStateException once the log has {@link Health#FAILED}
   */
  public long append(BinlogRecord r) {
    if (writer == null) {
      return nextSequence++;
    }
    return append(r, null, 0);
  }

  /**
   * {@link #append}, for a record a standby received: its frame, {@code frames[offset, offset +
   * frame's length)}, is written as it came, with the frames next to it in one write once
   * {@link #flushFrames} is called (or anything else is appended). {@code frames} must never change.
   */
  public long appendFrame(BinlogRecord r, byte[] frames, int offset) {
    if (writer == null) {
      return nextSequence++;
    }
    int length = (frames[offset] & 0xFF) << 24 | (frames[offset + 1] & 0xFF) << 16 | (frames[offset + 2] & 0xFF) << 8
        | (frames[offset + 3] & 0xFF);
    if (RecordCodec.FRAME_HEADER_BYTES + length != RecordCodec.frameBytes(r)) {
      throw new IllegalArgumentException("binlog: a frame of " + length + " bytes for " + r);
    }
    return append(r, frames, offset);
  }

  /** Hands the frames appended as they came to the writer: call after a standby's batch. */
  public void flushFrames() {
    if (runFrames != null) {
      writer.submit(new WriterTask.AppendFrames(runSequence, runFrames, runFrom, runTo));
      runFrames = null;
    }
  }

  /**
   * {@link #appendFrame} for a job's snapshot read where it came ({@link JobFrame}), with no record
   * made of it: a standby's copy. The frame's array must never change.
   */
  public long appendJobFrame(JobFrame job) {
    if (writer == null) {
      return nextSequence++;
    }
    int frameBytes = job.frameBytes();
    startSegmentFor(frameBytes);
    ledger.place(frameBytes);
    long id = job.id();
    if (ledger.rebase(id, frameBytes)) {
      recordsMigrated++;
    }
    nextJobIdFloor = Math.max(nextJobIdFloor, id + 1);
    long sequence = placeFrame(job.data(), job.frameOffset(), frameBytes);
    deleteUnneeded();
    return sequence;
  }

  private long append(BinlogRecord r, byte[] frames, int offset) {
    int frameBytes = RecordCodec.frameBytes(r);
    startSegmentFor(frameBytes);
    long sequence = place(r, frameBytes, frames, offset);
    deleteUnneeded();
    return sequence;
  }

  /** Fails unless the log can be written; starts the next segment when the current one has no room for the frame. */
  private void startSegmentFor(int frameBytes) {
    if (health == Health.FAILED || isClosed) {
      throw new IllegalStateException(
          "binlog: " + (isClosed ? "closed" : "failed") + ", nothing can be written");
    }
    SegmentLedger.Segment current = ledger.current();
    // A record larger than a segment gets a segment to itself.
    if (current.bytes + frameBytes > segmentSizeBytes && current.bytes > SEGMENT_START_BYTES) {
      startSegment(current.index + 1);
    }
  }

  private void startSegment(long index) {
    flushFrames();
    ledger.open(index, SegmentFile.HEADER_BYTES);
    writer.submit(new WriterTask.StartSegment(index));
    HighWater mark = new HighWater(nextJobIdFloor);
    place(mark, RecordCodec.frameBytes(mark), null, 0);
    if (standingSettings != null) {
      place(standingSettings, RecordCodec.frameBytes(standingSettings), null, 0);
    }
  }

  /** A replay's target that also keeps the last settings table read, to start the first segment with. */
  private final class SettingsKept implements ReplayTarget {
    private final ReplayTarget target;

    SettingsKept(ReplayTarget target) {
      this.target = target;
    }

    @Override
    public void snapshot(JobSnapshot job, long segment, int frameBytes) {
      target.snapshot(job, segment, frameBytes);
    }

    @Override
    public void change(long id, BinlogRecord change) {
      target.change(id, change);
    }

    @Override
    public void delete(long id) {
      target.delete(id);
    }

    @Override
    public void deadLetterNote(BinlogRecord.DeadLetterNote note) {
      target.deadLetterNote(note);
    }

    @Override
    public void tubeSettings(BinlogRecord.TubeSettingsTable table) {
      standingSettings = table.settings().isEmpty() ? null : table;
      target.tubeSettings(table);
    }
  }

  /** @param frames where the record's frame is, as received, at {@code offset}; null to encode it */
  private long place(BinlogRecord r, int frameBytes, byte[] frames, int offset) {
    ledger.place(frameBytes);
    if (r instanceof JobSnapshot j) {
      if (ledger.rebase(j.id(), frameBytes)) {
        recordsMigrated++;
      }
      nextJobIdFloor = Math.max(nextJobIdFloor, j.id() + 1);
    } else if (r instanceof Delete d) {
      ledger.forget(d.id());
    } else if (r instanceof BinlogRecord.TubeSettingsTable t) {
      standingSettings = t.settings().isEmpty() ? null : t;
    }
    if (frames == null) {
      recordsWritten++;
      long sequence = nextSequence++;
      flushFrames();
      writer.submit(new WriterTask.Append(sequence, r));
      return sequence;
    }
    return placeFrame(frames, offset, frameBytes);
  }

  /** A frame as it came joins the run of frames next to it, handed to the writer in one write. */
  private long placeFrame(byte[] frames, int offset, int frameBytes) {
    recordsWritten++;
    long sequence = nextSequence++;
    if (frames != runFrames || offset != runTo) {
      flushFrames();
      runFrames = frames;
      runFrom = offset;
    }
    runTo = offset + frameBytes;
    runSequence = sequence;
    return sequence;
  }

  private void deleteUnneeded() {
    for (SegmentLedger.Segment s : ledger.takeUnneeded()) {
      flushFrames();
      writer.submit(new WriterTask.DeleteSegment(s.index));
    }
  }

  /** No log: {@link #inMemory}; every append is durable at once and nothing reads the records. */
  public boolean isInMemory() {
    return writer == null;
  }

  /** Where the next record goes: after every record appended so far; null for a log {@link #inMemory}. */
  public LogPosition position() {
    if (writer == null) {
      return null;
    }
    SegmentLedger.Segment current = ledger.current();
    return new LogPosition(current.index, current.bytes);
  }

  /** The highest sequence that is durable under the policy. */
  public long durableSequence() {
    return writer == null ? Long.MAX_VALUE : durableSequence;
  }

  public Health health() {
    return health;
  }

  /** True when {@link #jobsToMigrate} has work: the oldest segment should be emptied. */
  public boolean isCompactionDue() {
    if (writer == null || isClosed || health == Health.FAILED || ledger.segmentCount() < 2) {
      return false;
    }
    SegmentLedger.Segment oldest = ledger.oldest();
    if (oldest.index < migrateAllBelow) {
      return true;
    }
    if (health == Health.DISK_FULL && oldest.liveBytes > reserveBytes / 4) {
      return false;
    }
    // Cheap when the oldest is mostly garbage; necessary when the whole log outgrows its bound.
    return oldest.liveBytes * 8 <= oldest.bytes
        || ledger.diskBytes() > 2 * ledger.liveBytes() + segmentSizeBytes;
  }

  /**
   * Up to {@code maxJobs} live jobs to rewrite now: append a fresh {@link JobSnapshot} of each
   * (reserved jobs as ready). Rewrite every id returned: the search resumes after the last one.
   */
  public long[] jobsToMigrate(int maxJobs) {
    return jobsToMigrate(maxJobs, Integer.MAX_VALUE);
  }

  /**
   * As {@link #jobsToMigrate(int)}, looking at no more than {@code maxScanned} of the oldest
   * segment's snapshots (bounded work for one engine turn); {@link #isMigrationSearchCut()} then
   * says whether the search stopped at that bound, so that an empty answer means "later", not "none".
   */
  public long[] jobsToMigrate(int maxJobs, int maxScanned) {
    return isCompactionDue() ? ledger.liveInOldest(maxJobs, maxScanned) : NONE;
  }

  /**
   * Whether the last {@link #jobsToMigrate} that searched (compaction was due) stopped at its bound
   * with snapshots still to look at.
   */
  public boolean isMigrationSearchCut() {
    return ledger.isScanCut();
  }

  /** stats-job {@code file}: the segment holding the job's snapshot, 0 if none. */
  public long segmentOf(long jobId) {
    return writer == null || isClosed ? 0 : ledger.baseOf(jobId);
  }

  public BinlogStats stats() {
    if (writer == null) {
      return new BinlogStats(0, 0, 0, 0, segmentSizeBytes, 0);
    }
    return new BinlogStats(ledger.oldest().index, ledger.current().index, recordsMigrated, recordsWritten,
        segmentSizeBytes, ledger.diskBytes());
  }

  long diskBytes() {
    return ledger.diskBytes();
  }

  long liveBytes() {
    return ledger.liveBytes();
  }

  /**
   * Writes and fsyncs everything appended, stops the writer and unlocks the directory. Call after
   * the last append, from any thread; blocks up to about ten seconds.
   */
  public void close() throws IOException {
    if (writer == null || isClosed) {
      return;
    }
    flushFrames();
    isClosed = true;
    writer.submit(new WriterTask.Stop());
    try {
      writerThread.join(10_000);
      if (writerThread.isAlive()) {
        log.warn("binlog: writer still busy after 10 s (disk full?); stopping it");
        writerThread.interrupt();
        writerThread.join(1_000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      // The writer is done and the engine stopped before this: nobody asks the ledger any more.
      ledger.close();
      if (lock != null) {
        lock.close();
      }
    }
  }

  /** The writer's news, on the engine thread. */
  void onWritten(long sequence) {
    if (sequence > durableSequence) {
      durableSequence = sequence;
      listener.onDurable(sequence);
    }
  }

  void onHealth(Health from, Health to) {
    if (health == from) {
      health = to;
      listener.onHealthChanged(to);
    }
  }

  void onFailed(Throwable cause) {
    if (health != Health.FAILED) {
      health = Health.FAILED;
      listener.onHealthChanged(health);
      listener.onFailure(cause);
    }
  }
}
