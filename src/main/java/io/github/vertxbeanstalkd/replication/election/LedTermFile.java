package io.github.vertxbeanstalkd.replication.election;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The last term this node led, kept beside its binlog: if the group's record says that term went
 * on alone, this node, restarted on the same binlog, is the one that holds what it acknowledged,
 * and the only one that may take over. A stale file is harmless: the record's term only goes up,
 * so it can name this node's old term only while no later term exists. Blocking: call it off the
 * event loop.
 *
 * <p>To change this format: it is the term in decimal, UTF-8; a file that cannot be read means
 * "led none" (-1), never an error.
 */
public final class LedTermFile {
  static final String NAME = "replication-led-term";
  private final Path file;

  public LedTermFile(Path dir) {
    this.file = dir.resolve(NAME);
  }

  /** The term written last, or -1. */
  public long read() {
    try {
      return Long.parseLong(Files.readString(file, StandardCharsets.UTF_8).trim());
    } catch (NoSuchFileException | NumberFormatException e) {
      return -1;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Replaces the term at once (a crash leaves the old one or the new one), and syncs it. */
  public void write(long term) {
    Path tmp = file.resolveSibling(NAME + ".tmp");
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      ch.write(java.nio.ByteBuffer.wrap(Long.toString(term).getBytes(StandardCharsets.UTF_8)));
      ch.force(true);
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
