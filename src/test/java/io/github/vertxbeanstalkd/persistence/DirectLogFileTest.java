package io.github.vertxbeanstalkd.persistence;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectLogFileTest {
  @TempDir Path dir;
  Path file;
  DirectLogFile log;
  final ByteArrayOutputStream expected = new ByteArrayOutputStream();
  final Random random = new Random(7);

  @BeforeEach
  void open() throws IOException {
    file = dir.resolve("binlog.000001");
    log = DirectLogFile.create(file);
    assumeTrue(log != null, "the file system of " + dir + " cannot do direct I/O");
  }

  private void append(int... sizes) throws IOException {
    ByteBuffer[] buffers = new ByteBuffer[sizes.length];
    for (int i = 0; i < sizes.length; i++) {
      byte[] b = new byte[sizes[i]];
      random.nextBytes(b);
      expected.writeBytes(b);
      buffers[i] = ByteBuffer.wrap(b);
    }
    log.write(buffers);
    for (ByteBuffer b : buffers) {
      assertEquals(0, b.remaining(), "a write takes every remaining byte");
    }
  }

  /** The file holds what was appended, then only zeros. */
  private void assertContent() throws IOException {
    byte[] data = Files.readAllBytes(file);
    byte[] want = expected.toByteArray();
    assertTrue(data.length >= want.length, data.length + " bytes on disk, " + want.length + " appended");
    assertArrayEquals(want, Arrays.copyOf(data, want.length));
    for (int i = want.length; i < data.length; i++) {
      assertEquals(0, data[i], "byte " + i + " after the records");
    }
  }

  @Test
  void appendsOfEverySizeLandInOrderAndTheFileEndsInZeros() throws IOException {
    append(24);
    append(193, 193);
    assertContent();
    for (int i = 0; i < 200; i++) {
      append(1 + random.nextInt(5000), 1 + random.nextInt(300));
    }
    assertContent();
    append(700_000, 3, 300_000);
    append(1);
    assertContent();
    log.close();
  }

  @Test
  void aCutBackToTheMiddleOfABlockIsWrittenOverByTheNextAppend() throws IOException {
    append(5000, 3000);
    log.truncate(6000);
    byte[] kept = Arrays.copyOf(expected.toByteArray(), 6000);
    expected.reset();
    expected.writeBytes(kept);
    assertEquals(6000, Files.size(file));
    append(10);
    assertContent();
    log.force();
    log.close();
  }

  @Test
  void zerosWrittenAheadAreOverwrittenWithoutGrowingTheFile() throws IOException {
    append(100);
    log.writeZeros(100, 1 << 20);
    long size = Files.size(file);
    assertTrue(size >= 1 << 20);
    for (int i = 0; i < 100; i++) {
      append(193);
    }
    assertContent();
    assertEquals(size, Files.size(file));
    log.close();
  }
}
