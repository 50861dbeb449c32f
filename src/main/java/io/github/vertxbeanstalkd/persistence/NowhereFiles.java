package io.github.vertxbeanstalkd.persistence;

import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * {@link LogFiles} that keep nothing: every write is taken and dropped, every fsync returns at once,
 * and the file system never fills. For the warm-up's throwaway servers ({@link Binlog#openWritingNowhere}):
 * the log's own code (the engine's bookkeeping, the writer thread, encoding, acknowledgements
 * after a sync) runs as it does for a real log, at the speed of memory, and no disk is touched.
 */
final class NowhereFiles implements LogFiles {
  static final NowhereFiles INSTANCE = new NowhereFiles();

  private static final LogFile FILE = new LogFile() {
    @Override
    public void write(ByteBuffer[] buffers) {
      // Taken whole, as a write to a file is: the writer reuses its buffers after this.
      for (ByteBuffer b : buffers) {
        b.position(b.limit());
      }
    }

    @Override
    public void force() {
      // Nothing was kept, so nothing to make durable.
    }

    @Override
    public void truncate(long bytes) {
      // Nothing was kept.
    }

    @Override
    public void writeZeros(long from, long to) {
      // Nothing is kept.
    }

    @Override
    public void close() {
      // Holds nothing open.
    }
  };

  private NowhereFiles() {}

  @Override
  public LogFile create(Path file) {
    return FILE;
  }

  @Override
  public LogFile createWriteThrough(Path file) {
    return FILE;
  }

  @Override
  public void delete(Path file) {
    // Nothing was created.
  }

  @Override
  public void syncDirectory(Path dir) {
    // Nothing was created.
  }

  @Override
  public long usableSpace(Path dir) {
    return Long.MAX_VALUE;
  }
}
