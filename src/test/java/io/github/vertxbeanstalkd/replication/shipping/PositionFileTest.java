package io.github.vertxbeanstalkd.replication.shipping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A standby's position beside its binlog: written whole, read back, and absent means a full copy. */
class PositionFileTest {
  @TempDir
  Path dir;

  @Test
  void aWrittenPositionIsReadBackAndADeletedOneIsGone() {
    PositionFile file = new PositionFile(dir);
    assertNull(file.read());
    file.write(new PositionFile.Position(7, 1234));
    file.write(new PositionFile.Position(7, 1300));
    assertEquals(new PositionFile.Position(7, 1300), new PositionFile(dir).read());
    file.delete();
    assertNull(file.read());
    file.delete();
  }

  @Test
  void aDamagedFileMeansNoPosition() throws Exception {
    PositionFile file = new PositionFile(dir);
    for (String text : new String[] {"", "{", "[]", "{\"term\": 3}", "{\"term\": \"x\", \"sequence\": 1}",
        "{\"term\": -1, \"sequence\": 5}"}) {
      Files.writeString(dir.resolve(PositionFile.NAME), text);
      assertNull(file.read(), text);
    }
  }
}
