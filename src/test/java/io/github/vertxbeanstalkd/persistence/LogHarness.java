package io.github.vertxbeanstalkd.persistence;

import io.github.vertxbeanstalkd.persistence.BinlogRecord.JobSnapshot;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/** One binlog opened on a directory, with the test thread as its engine thread. */
final class LogHarness implements AutoCloseable {
  static final long TIMEOUT_MILLIS = 10_000;
  static final long RESERVE_BYTES = 16 * 1024;
  final Path dir;
  final EngineThread engine;
  final RecordingListener listener;
  final FakeDisk disk;
  final Binlog binlog;

  private LogHarness(Path dir, EngineThread engine, RecordingListener listener, FakeDisk disk,
      Binlog binlog) {
    this.dir = dir;
    this.engine = engine;
    this.listener = listener;
    this.disk = disk;
    this.binlog = binlog;
  }

  static LogHarness open(Path dir, FsyncPolicy fsync, long segmentSizeBytes) throws IOException {
    return open(new BinlogConfig(dir, fsync, segmentSizeBytes, false), new FakeDisk());
  }

  static LogHarness open(BinlogConfig config, FakeDisk disk) throws IOException {
    EngineThread engine = new EngineThread();
    RecordingListener listener = new RecordingListener();
    Binlog binlog = Binlog.open(config, engine, listener, disk, RESERVE_BYTES, 50);
    return new LogHarness(config.dir(), engine, listener, disk, binlog);
  }

  long append(BinlogRecord r) {
    return binlog.append(r);
  }

  /** Appends and waits until the record is durable, as the engine waits before it acknowledges. */
  long appendDurably(BinlogRecord r) {
    long sequence = binlog.append(r);
    awaitDurable(sequence);
    return sequence;
  }

  void awaitDurable(long sequence) {
    engine.runUntil(() -> listener.durable >= sequence, TIMEOUT_MILLIS);
  }

  @Override
  public void close() throws IOException {
    binlog.close();
  }

  /** Writes {@code count} jobs of about 300 bytes under fsync always, and closes the log. */
  static List<JobSnapshot> writeJobs(Path dir, long segmentSizeBytes, int count) throws IOException {
    List<JobSnapshot> jobs = new ArrayList<>();
    try (LogHarness log = open(dir, new FsyncPolicy.Always(), segmentSizeBytes)) {
      long last = 0;
      for (int id = 1; id <= count; id++) {
        JobSnapshot j = job(id, ("job " + id + " ").repeat(30));
        jobs.add(j);
        last = log.append(j);
      }
      log.awaitDurable(last);
    }
    return jobs;
  }

  /** The record's bytes as the log frames them. */
  static byte[] frame(BinlogRecord r) {
    return RecordCodec.encode(r).array();
  }

  static void appendBytes(Path file, byte[] bytes) throws IOException {
    Files.write(file, bytes, StandardOpenOption.APPEND);
  }

  /** Writes {@code bytes} over the file's bytes at {@code offset}, as damage on the disk would. */
  static void overwrite(Path file, long offset, byte[] bytes) throws IOException {
    try (FileChannel f = FileChannel.open(file, StandardOpenOption.WRITE)) {
      f.write(ByteBuffer.wrap(bytes), offset);
    }
  }

  static JobSnapshot job(long id, String body) {
    return job(id, "default", SnapshotState.READY, 1024, body);
  }

  static JobSnapshot job(long id, String tube, SnapshotState state, int priority, String body) {
    long readyAt = state == SnapshotState.DELAYED ? 1_700_000_060_000L : 0;
    int delay = state == SnapshotState.DELAYED ? 60 : 0;
    return new JobSnapshot(id, tube, state, priority, delay, readyAt, 120, 1_700_000_000_000L + id,
        JobCounters.ZERO, body.getBytes(StandardCharsets.US_ASCII));
  }
}
