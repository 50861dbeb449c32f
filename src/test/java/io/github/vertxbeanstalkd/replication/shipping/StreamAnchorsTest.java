package io.github.vertxbeanstalkd.replication.shipping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.vertxbeanstalkd.persistence.LogPosition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A primary's stream anchors beside its binlog: written whole, read back, claimed once; damage means none. */
class StreamAnchorsTest {
  @TempDir
  Path dir;

  @Test
  void writtenAnchorsAreReadBackAndAClaimTakesThemOnce() throws Exception {
    StreamAnchors file = new StreamAnchors(dir);
    assertNull(file.read());
    List<StreamAnchors.Anchor> anchors = List.of(new StreamAnchors.Anchor(100, new LogPosition(3, 4096)),
        new StreamAnchors.Anchor(9000, new LogPosition(4, 64)));
    file.write(new StreamAnchors.Kept(5, anchors));
    assertEquals(new StreamAnchors.Kept(5, anchors), new StreamAnchors(dir).read());
    OwnStream claimed = OwnStream.claim(dir);
    assertEquals(5, claimed.term());
    assertFalse(Files.exists(dir.resolve(StreamAnchors.NAME)), "the claim left the anchors for a later start");
    assertNull(OwnStream.claim(dir));
  }

  @Test
  void aDamagedFileMeansNoAnchors() throws Exception {
    StreamAnchors file = new StreamAnchors(dir);
    for (String text : new String[] {"", "{", "[]", "{\"term\": 3}", "{\"term\": 3, \"anchors\": []}",
        "{\"term\": 3, \"anchors\": [[1, 2]]}", "{\"term\": \"x\", \"anchors\": [[1, 2, 3]]}"}) {
      Files.writeString(dir.resolve(StreamAnchors.NAME), text);
      assertNull(file.read(), text);
    }
  }
}
