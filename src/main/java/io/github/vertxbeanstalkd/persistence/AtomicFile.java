package io.github.vertxbeanstalkd.persistence;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * A small file beside the binlog that is only ever replaced whole: a crash, even of the machine,
 * leaves the old content or the new one, never a mix and never neither. A write goes to a sibling
 * {@code .tmp} file, which is synced, renamed over the file, and then the directory is synced so
 * that the rename itself survives a power loss; a delete syncs the directory too. Blocking: call it
 * off the event loop.
 */
public final class AtomicFile {
  private final Path file;
  private final Path tmp;

  public AtomicFile(Path file) {
    this.file = file;
    this.tmp = file.resolveSibling(file.getFileName() + ".tmp");
  }

  /** The content written last, or null when there is no file. */
  public String read() {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Replaces the content at once, durably. */
  public void write(String content) {
    try {
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
          StandardOpenOption.TRUNCATE_EXISTING)) {
        ByteBuffer bytes = ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8));
        while (bytes.hasRemaining()) {
          ch.write(bytes);
        }
        ch.force(true);
      }
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      syncDirectory();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Removes the file, durably; no file is fine. */
  public void delete() {
    try {
      Files.deleteIfExists(file);
      syncDirectory();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void syncDirectory() throws IOException {
    try (FileChannel dir = FileChannel.open(file.toAbsolutePath().getParent(), StandardOpenOption.READ)) {
      dir.force(true);
    }
  }
}
