package io.github.vertxbeanstalkd.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A small file replaced whole: what was written last is read, and a crashed write's leftover is not. */
class AtomicFileTest {
  @TempDir
  Path dir;

  @Test
  void theLastWriteIsReadAndADeleteLeavesNothing() {
    AtomicFile file = new AtomicFile(dir.resolve("f"));
    assertNull(file.read());
    file.write("one");
    file.write("two, longer than one");
    file.write("3");
    assertEquals("3", new AtomicFile(dir.resolve("f")).read());
    assertFalse(Files.exists(dir.resolve("f.tmp")), "the write's sibling is renamed, not left behind");
    file.delete();
    assertNull(file.read());
    file.delete();
  }

  @Test
  void aWriteThatDiedBeforeItsRenameLeavesTheOldContent() throws Exception {
    AtomicFile file = new AtomicFile(dir.resolve("f"));
    file.write("old");
    Files.writeString(dir.resolve("f.tmp"), "half of the n");
    assertEquals("old", file.read());
    file.write("new");
    assertEquals("new", file.read());
  }
}
