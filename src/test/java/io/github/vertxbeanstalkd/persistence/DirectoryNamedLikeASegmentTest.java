package io.github.vertxbeanstalkd.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.engine.QueueEngine;
import io.github.vertxbeanstalkd.engine.ServerInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A directory in a segment's place (an operator's mistake, found by the recovery fuzz test) is not
 * read, so replay did not count its index, and the writer's first new segment was created on that
 * name: FileAlreadyExistsException, and the log refused every change after a clean start. New
 * segments now go past every name an entry of the directory takes.
 */
class DirectoryNamedLikeASegmentTest {
  private static final int SEGMENT_BYTES = 4096;
  @TempDir Path dir;

  @Test
  void theFirstNewSegmentGoesPastADirectoryNamedLikeOne() throws IOException {
    List<BinlogRecord.JobSnapshot> written = LogHarness.writeJobs(dir, SEGMENT_BYTES, 30);
    List<Path> segments = SegmentFile.list(dir);
    long last = SegmentFile.indexOf(segments.get(segments.size() - 1));
    Files.createDirectory(SegmentFile.path(dir, last + 1));
    Files.createDirectory(SegmentFile.path(dir, last + 3));

    BinlogConfig config = new BinlogConfig(dir, new FsyncPolicy.Never(), SEGMENT_BYTES, true);
    Binlog binlog = Binlog.lock(config, Runnable::run, new RecordingListener());
    QueueEngine engine = new QueueEngine(() -> 0, r -> { }, ServerInfo.forTests(), 65_535, binlog);
    try {
      engine.restored(binlog.replay(engine.replayTarget()));
    } finally {
      engine.close();
      binlog.close();
    }

    assertEquals(Binlog.Health.WRITING, binlog.health());
    assertTrue(Files.isRegularFile(SegmentFile.path(dir, last + 4)), () -> "entries now: " + java.util.Arrays.toString(dir.toFile().list()));
    assertTrue(Files.isDirectory(SegmentFile.path(dir, last + 1)));
    assertEquals(written, Replay.read(dir, true).jobs());
  }
}
