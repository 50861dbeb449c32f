package io.github.vertxbeanstalkd.persistence;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link LogFiles} on the real file system, through {@link FileChannel}. */
final class DiskLogFiles implements LogFiles {
  static final DiskLogFiles INSTANCE = new DiskLogFiles();
  private static final Logger log = LoggerFactory.getLogger(DiskLogFiles.class);
  private static final int ZERO_CHUNK_BYTES = 256 * 1024;
  private final AtomicBoolean isBufferedFallbackLogged = new AtomicBoolean();

  private DiskLogFiles() {}

  @Override
  public LogFile createWriteThrough(Path file) throws IOException {
    LogFile direct = DirectLogFile.create(file);
    if (direct != null) {
      return direct;
    }
    if (isBufferedFallbackLogged.compareAndSet(false, true)) {
      log.info("binlog: {} cannot do direct I/O; writing through the page cache and fdatasync",
          file.getParent());
    }
    return create(file);
  }

  @Override
  public LogFile create(Path file) throws IOException {
    FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    return new LogFile() {
      @Override
      public void write(ByteBuffer[] buffers) throws IOException {
        long remaining = 0;
        for (ByteBuffer b : buffers) {
          remaining += b.remaining();
        }
        while (remaining > 0) {
          remaining -= channel.write(buffers);
        }
      }

      @Override
      public void force() throws IOException {
        // fdatasync: also makes a new length durable, not a new modification time.
        channel.force(false);
      }

      @Override
      public void writeZeros(long from, long to) throws IOException {
        // Real zeros, not a sparse hole: writing into a hole allocates blocks, and an fdatasync
        // must then write that metadata too. Positional writes leave the append position alone.
        ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(ZERO_CHUNK_BYTES, to - from));
        for (long at = from; at < to; ) {
          zeros.clear().limit((int) Math.min(zeros.capacity(), to - at));
          at += channel.write(zeros, at);
        }
      }

      @Override
      public void truncate(long bytes) throws IOException {
        channel.truncate(bytes);
        channel.position(bytes);
      }

      @Override
      public void close() throws IOException {
        channel.close();
      }
    };
  }

  @Override
  public void delete(Path file) throws IOException {
    Files.deleteIfExists(file);
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    // POSIX: a new or removed name is durable only once its directory is fsynced.
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    }
  }

  @Override
  public long usableSpace(Path dir) throws IOException {
    return Files.getFileStore(dir).getUsableSpace();
  }
}
