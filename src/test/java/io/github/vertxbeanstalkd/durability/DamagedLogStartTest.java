package io.github.vertxbeanstalkd.durability;

import static io.github.vertxbeanstalkd.durability.Wire.number;
import static io.github.vertxbeanstalkd.durability.Wire.peek;
import static io.github.vertxbeanstalkd.durability.Wire.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.BinlogSection;
import io.github.vertxbeanstalkd.config.FsyncSetting;
import io.github.vertxbeanstalkd.config.ServerConfig;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Start-up refuses what it cannot trust, through the real deployment: a directory another server
 * holds, and a segment damaged in its middle (FORMAT.md Replay: refuse naming file and offset, or
 * with binlog.recover skip the damaged record and start).
 */
class DamagedLogStartTest {
  /** FORMAT.md Segment: magic, version, index, crc. */
  private static final int HEADER_BYTES = 8 + 4 + 8 + 4;
  private static final byte SNAPSHOT_TYPE = 2;
  @TempDir Path dir;

  @Test
  void aSecondServerOnTheSameDirectoryFailsToStartWhileTheFirstRuns() throws Exception {
    ServerConfig config = ServerLife.config(dir);
    try (ServerLife first = ServerLife.start(config); TestClient c = TestClient.connect(first.port())) {
      long id = put(c, "default", 1, 0, "kept");
      Throwable refused = ServerLife.startFailure(config);
      assertTrue(refused.getMessage().contains(dir + " is in use by another server"), refused.getMessage());
      c.send("peek " + id);
      assertTrue(c.readLine().startsWith("FOUND " + id), "the first server goes on");
      c.readLine();
    }
    try (ServerLife again = ServerLife.start(config)) {
      assertTrue(again.port() > 0, "the lock went with the first server");
    }
  }

  @Test
  void aFlippedByteInTheMiddleOfASegmentRefusesStartNamingFileAndOffsetAndRecoverSkipsIt() throws Exception {
    ServerConfig config = ServerLife.config(dir);
    Map<Long, String> bodies = new LinkedHashMap<>();
    try (ServerLife server = ServerLife.start(config); TestClient c = TestClient.connect(server.port())) {
      for (int i = 0; i < 30; i++) {
        String body = "job " + i + " " + "y".repeat(80);
        bodies.put(put(c, "t" + i % 3, i, 0, body), body);
      }
    }
    Path segment = dir.resolve("binlog.000001");
    byte[] bytes = Files.readAllBytes(segment);
    long frame = frameAround(bytes, bytes.length / 2);
    ByteBuffer b = ByteBuffer.wrap(bytes);
    assertEquals(SNAPSHOT_TYPE, b.get((int) frame + 8), "a put wrote a job snapshot");
    long damagedId = b.getLong((int) frame + 9);
    bytes[(int) frame + 40] ^= 0x10;
    Files.write(segment, bytes);

    Throwable refused = ServerLife.startFailure(config);
    assertTrue(refused.getMessage().contains(segment + " at offset " + frame), refused.getMessage());
    assertTrue(refused.getMessage().contains("binlog.recover"), "says how to start anyway: " + refused.getMessage());

    ServerConfig recover = config.withBinlog(new BinlogSection(dir, FsyncSetting.always(),
        BinlogSection.DEFAULT_SEGMENT_SIZE, true));
    long highest = bodies.keySet().stream().mapToLong(Long::longValue).max().orElseThrow();
    try (ServerLife server = ServerLife.start(recover); TestClient c = TestClient.connect(server.port())) {
      assertSurvivorsExcept(c, bodies, damagedId);
      long after = put(c, "t0", 1, 0, "after recovery");
      assertTrue(after > highest);
      bodies.put(after, "after recovery");
    }
    // FORMAT.md: a recover start compacts the damage away, so the next start needs no recover.
    try (ServerLife server = ServerLife.start(config); TestClient c = TestClient.connect(server.port())) {
      assertSurvivorsExcept(c, bodies, damagedId);
    }
  }

  private static void assertSurvivorsExcept(TestClient c, Map<Long, String> bodies, long damagedId) {
    Wire.expectGone(c, damagedId);
    for (Map.Entry<Long, String> e : bodies.entrySet()) {
      if (e.getKey() != damagedId) {
        assertEquals(e.getValue(), new String(peek(c, e.getKey()), StandardCharsets.ISO_8859_1));
      }
    }
    Map<String, String> stats = c.stats("stats");
    assertEquals(bodies.size() - 1, number(stats, "current-jobs-ready"), stats.toString());
  }

  /** The start of the frame that holds byte {@code position}, walking [u32 length][u32 crc][...]. */
  private static long frameAround(byte[] segment, int position) {
    ByteBuffer b = ByteBuffer.wrap(segment);
    int offset = HEADER_BYTES;
    while (offset + 8 <= segment.length) {
      int next = offset + 8 + b.getInt(offset);
      if (position < next) {
        assertTrue(next < segment.length, "the damage must not be in the last frame (a torn tail)");
        return offset;
      }
      offset = next;
    }
    throw new AssertionError("no frame at " + position);
  }
}
