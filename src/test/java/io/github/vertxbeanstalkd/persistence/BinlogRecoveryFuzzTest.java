package io.github.vertxbeanstalkd.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.github.vertxbeanstalkd.bus.SessionKey;
import io.github.vertxbeanstalkd.engine.QueueEngine;
import io.github.vertxbeanstalkd.engine.ServerInfo;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.JobSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;

/**
 * Coverage-guided fuzzing of replay and recovery (FORMAT.md, "End and damage"): a log directory
 * written as the writer lays it out ({@link FuzzedLog}, bodies that hold frames of their own),
 * then damaged by the fuzzer (bytes changed, files cut, deleted, replaced by directories, copied
 * under other names), is read by the production {@link Replay} without and with recover, and
 * started as the server starts it ({@link Binlog#open} into a {@link QueueEngine}). Each run uses
 * the same path and leaves no file or thread behind, so a finding reproduces from its input alone.
 * Properties:
 * <ul>
 *   <li>nothing escapes but the documented refusals (a {@link BinlogDamageException}, another
 *       format version, a segment index past {@link SegmentFile#MAX_INDEX});
 *   <li>without recover, a log that starts holds exactly the jobs of a prefix of what was written:
 *       never a job, nor a delete, from inside a body;
 *   <li>with recover and one damaged byte, exactly the hit record is lost, nothing else;
 *   <li>the first new id is above every id replayed.
 * </ul>
 */
class BinlogRecoveryFuzzTest {
  /** Made once per JVM; each run uses the same path under it, so runs differ only by their input. */
  private static Path root;

  @AfterAll
  static void removeRoot() throws IOException {
    if (root != null) {
      delete(root);
    }
  }

  @FuzzTest(maxDuration = "5s")
  void damagedLogDirectory(FuzzedDataProvider data) throws IOException {
    if (root == null) {
      root = Files.createTempDirectory("binlog-fuzz");
    }
    Path dir = root.resolve("log");
    // A directory or a writer thread left by an earlier run would make this run depend on that run.
    assertNoWriterAlive();
    Files.createDirectory(dir);
    try {
      check(data, dir);
    } finally {
      delete(dir);
    }
  }

  private static void check(FuzzedDataProvider data, Path dir) throws IOException {
    FuzzedLog log = new FuzzedLog(data);
    log.writeTo(dir);
    Damage damage = Damage.apply(data, log, dir);

    try {
      RecoveredLog strict = Replay.read(dir, false);
      if (!damage.isOldestSegmentGone() && !damage.isOlderSegmentCutAtRecordEnd()) {
        assertTrue(log.prefixStates().contains(strict.jobs()),
            () -> "started without recover with jobs no prefix of the log held: " + strict.jobs());
      }
      assertIdsBelowNext(strict);
    } catch (BinlogDamageException refused) {
      assertTrue(refused.getMessage().startsWith("binlog: "), refused::getMessage);
    } catch (IOException e) {
      assertOtherVersion(e);
      return;
    }

    RecoveredLog recovered = Replay.read(dir, true);
    assertIdsBelowNext(recovered);
    if (damage.isOneByte()) {
      int hit = log.recordAt(damage.segment(), damage.offset());
      List<JobSnapshot> expected = log.jobs(i -> i != hit);
      assertEquals(expected, recovered.jobs(), () -> "one damaged byte at " + damage + " in record " + hit
          + (hit < 0 ? "" : " " + log.placed.get(hit)));
    }
    if (data.consumeBoolean()) {
      startServerOn(dir);
    }
  }

  /** Binlog.lock and a replay into the engine, as QueueEngineVerticle starts with binlog.recover true. */
  private static void startServerOn(Path dir) throws IOException {
    BinlogConfig config = new BinlogConfig(dir, new FsyncPolicy.Never(), BinlogConfig.MIN_SEGMENT_SIZE, true);
    String before = describe(dir);
    Map<Path, byte[]> files = contents(dir);
    Binlog binlog = Binlog.lock(config, Runnable::run, new RecordingListener());
    QueueEngine engine = new QueueEngine(() -> 0, r -> { }, ServerInfo.forTests(), 65_535, binlog);
    try {
      try {
        engine.restored(binlog.replay(engine.replayTarget()));
      } catch (RuntimeException e) {
        // Name the directory a finding came from (its files, what replay made of them), and say
        // whether the same files fail again in this process: if not, the fault is not in the layout.
        throw new AssertionError("replay with recover failed on " + before + "; read again after: "
            + describe(dir) + "; the same files opened again: " + openAgain(files), e);
      }
      engine.open(new SessionKey("fuzz", 1), true);
    } finally {
      engine.close();
      binlog.close();
    }
    // A log recovered from damage must still take writes: a failed writer refuses every change after.
    assertNotEquals(Binlog.Health.FAILED, binlog.health(), () -> "the writer failed after a start on " + before);
  }

  /** The segment files' bytes, by name. */
  private static Map<Path, byte[]> contents(Path dir) throws IOException {
    Map<Path, byte[]> files = new TreeMap<>();
    for (Path f : SegmentFile.list(dir)) {
      files.put(f.getFileName(), Files.readAllBytes(f));
    }
    return files;
  }

  private static String openAgain(Map<Path, byte[]> files) throws IOException {
    Path again = root.resolve("again");
    Files.createDirectory(again);
    try {
      for (Map.Entry<Path, byte[]> f : files.entrySet()) {
        Files.write(again.resolve(f.getKey()), f.getValue());
      }
      BinlogConfig config = new BinlogConfig(again, new FsyncPolicy.Never(), BinlogConfig.MIN_SEGMENT_SIZE, true);
      Binlog.open(config, Runnable::run, new RecordingListener()).close();
      return "opened";
    } catch (RuntimeException e) {
      return "failed too (" + e + ")";
    } finally {
      delete(again);
    }
  }

  private static void assertNoWriterAlive() {
    Thread[] threads = new Thread[Thread.activeCount() + 16];
    int n = Thread.enumerate(threads);
    for (int i = 0; i < n; i++) {
      if (threads[i].getName().equals("binlog-writer")) {
        throw new AssertionError("a binlog writer of an earlier run is still alive: " + threads[i]);
      }
    }
  }

  private static String describe(Path dir) throws IOException {
    StringBuilder b = new StringBuilder();
    for (Path f : SegmentFile.list(dir)) {
      b.append(f.getFileName()).append(" (").append(Files.size(f)).append(" bytes) ");
    }
    RecoveredLog r = Replay.read(dir, true);
    b.append("; segments replayed:");
    r.segments().forEach(s -> b.append(' ').append(s.index()).append('/').append(s.bytes()));
    b.append("; torn tail: ").append(r.tornTail()).append("; job bases:");
    for (int i = 0; i < r.jobs().size(); i++) {
      b.append(' ').append(r.jobs().get(i).id()).append('@').append(r.baseSegment(i));
    }
    return b.toString();
  }

  private static void assertIdsBelowNext(RecoveredLog r) {
    for (JobSnapshot j : r.jobs()) {
      assertTrue(j.id() < r.nextJobId(), () -> "job " + j.id() + " at or above the next id " + r.nextJobId());
    }
  }

  /** The refusals that hold even in recover mode: another format version, an index out of range. */
  private static void assertOtherVersion(IOException e) throws IOException {
    if (e.getMessage() == null || !e.getMessage().contains("this server reads format version")
        && !e.getMessage().contains("the highest this server starts on")) {
      throw e;
    }
  }

  /**
   * What the fuzzer did to the directory. An older segment cut exactly where its header or a record
   * ends cannot be told from one that ended there (FORMAT.md, "End and damage"): no prefix then.
   */
  record Damage(boolean isOneByte, int segment, int offset, boolean isOldestSegmentGone,
      boolean isOlderSegmentCutAtRecordEnd) {
    static Damage apply(FuzzedDataProvider data, FuzzedLog log, Path dir) throws IOException {
      int segments = log.segments.size();
      if (segments == 0) {
        return new Damage(false, 0, 0, false, false);
      }
      if (data.consumeBoolean()) {
        int segment = data.consumeInt(1, segments);
        byte[] image = log.segments.get(segment - 1);
        int offset = data.consumeInt(0, image.length - 1);
        byte[] damaged = image.clone();
        damaged[offset] ^= (byte) data.consumeInt(1, 255);
        Files.write(SegmentFile.path(dir, segment), damaged);
        return new Damage(true, segment, offset, false, false);
      }
      boolean isOldestGone = false;
      boolean isOlderCutAtRecordEnd = false;
      for (int n = data.consumeInt(0, 4); n > 0; n--) {
        int segment = data.consumeInt(1, segments + 1);
        Path file = SegmentFile.path(dir, segment);
        if (Files.isDirectory(file)) {
          continue;
        }
        byte[] image = Files.exists(file) ? Files.readAllBytes(file) : new byte[0];
        switch (data.consumeInt(0, 4)) {
          case 0 -> { // bytes written over, anywhere
            int at = data.consumeInt(0, Math.max(0, image.length));
            byte[] over = data.consumeBytes(16);
            byte[] out = Arrays.copyOf(image, Math.max(image.length, at + over.length));
            System.arraycopy(over, 0, out, at, over.length);
            Files.write(file, out);
          }
          case 1 -> {
            int bytes = data.consumeInt(0, image.length);
            Files.write(file, Arrays.copyOf(image, bytes));
            isOlderCutAtRecordEnd |= segment < segments && log.isRecordEnd(segment, bytes);
          }
          case 2 -> { // a torn append: a frame's first bytes, then perhaps zeros
            byte[] more = data.consumeBytes(64);
            byte[] out = Arrays.copyOf(image, image.length + more.length + data.consumeInt(0, 1) * 512);
            System.arraycopy(more, 0, out, image.length, more.length);
            Files.write(file, out);
          }
          case 3 -> {
            // The file is gone, or a directory took its place, or it was copied under another name
            // (chosen here, not as kinds of their own, so that kept inputs still mean what they did).
            switch (data.consumeInt(0, 2)) {
              case 0 -> Files.deleteIfExists(file);
              case 1 -> {
                Files.deleteIfExists(file);
                Files.createDirectory(file);
              }
              default -> Files.write(dir.resolve(strayName(data, segments)), image);
            }
            isOldestGone |= segment == 1 && !Files.isRegularFile(file);
          }
          default -> Files.write(file, data.consumeBytes(200));
        }
      }
      return new Damage(false, 0, 0, isOldestGone, isOlderCutAtRecordEnd);
    }
  }

  /** A name an operator's copy might get: far ahead, in other digits, or past the highest index. */
  private static String strayName(FuzzedDataProvider data, int segments) {
    long index = data.pickValue(new long[] {segments + 2, segments + 1_000, 20_261_125, SegmentFile.MAX_INDEX,
        SegmentFile.MAX_INDEX + 1, 1L << 32});
    return data.consumeBoolean() ? String.format("binlog.%06d", index)
        : String.format("binlog.%0" + data.consumeInt(7, 12) + "d", data.consumeInt(1, segments));
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.delete(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
  }
}
