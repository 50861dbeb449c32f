package io.github.vertxbeanstalkd.persistence;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Real files with a pretend capacity and injectable faults: counts fsyncs, runs out of space like a
 * full disk (a prefix of the write lands, then ENOSPC), and fails writes or fsyncs on demand.
 */
final class FakeDisk implements LogFiles {
  final AtomicInteger forces = new AtomicInteger();
  /** Bytes written to segment files, and how many of them an fsync covered. */
  final AtomicLong segmentBytesWritten = new AtomicLong();
  final AtomicLong segmentBytesForced = new AtomicLong();
  /** Zeros written ahead of the records. */
  final AtomicLong zeroBytesWritten = new AtomicLong();
  final AtomicLong freeBytes = new AtomicLong(Long.MAX_VALUE / 2);
  volatile long forceDelayMillis;
  volatile boolean isWriteBroken;
  volatile boolean isForceBroken;
  /**
   * Zeros written ahead take no room (as on a compressing file system) until records overwrite
   * them, so the disk fills at a record write; by default they take room when written, as on ext4.
   */
  volatile boolean isZeroFillFree;
  volatile long lastWriteNanos;
  volatile long lastForceNanos;

  @Override
  public LogFile create(Path file) throws IOException {
    return faulty(file, DiskLogFiles.INSTANCE.create(file));
  }

  @Override
  public LogFile createWriteThrough(Path file) throws IOException {
    return faulty(file, DiskLogFiles.INSTANCE.createWriteThrough(file));
  }

  private LogFile faulty(Path file, LogFile real) {
    boolean isSegment = SegmentFile.indexOf(file) > 0;
    return new LogFile() {
      /** Where appends go, and the file's size (more once zeros are written ahead). */
      long position;
      long size;

      @Override
      public void write(ByteBuffer[] buffers) throws IOException {
        if (isWriteBroken) {
          throw new IOException("Input/output error");
        }
        long total = 0;
        for (ByteBuffer b : buffers) {
          total += b.remaining();
        }
        long room = freeBytes.get() + Math.max(0, size - position);
        if (total > room) {
          // What a real full disk does: part of the data lands, then ENOSPC.
          ByteBuffer prefix = ByteBuffer.allocate((int) room);
          for (ByteBuffer b : buffers) {
            ByteBuffer d = b.duplicate();
            d.limit(d.position() + Math.min(d.remaining(), prefix.remaining()));
            prefix.put(d);
          }
          real.write(new ByteBuffer[] {prefix.flip()});
          grow(room);
          throw new IOException("No space left on device");
        }
        real.write(buffers);
        grow(total);
        if (isSegment) {
          segmentBytesWritten.addAndGet(total);
          lastWriteNanos = System.nanoTime();
        }
      }

      @Override
      public void force() throws IOException {
        if (isForceBroken) {
          throw new IOException("Input/output error");
        }
        long covered = segmentBytesWritten.get();
        if (forceDelayMillis > 0) {
          try {
            Thread.sleep(forceDelayMillis); // a slow fsync is what this fake disk plays
          } catch (InterruptedException e) {
            throw new IOException(e);
          }
        }
        real.force();
        if (isSegment) {
          forces.incrementAndGet();
          segmentBytesForced.accumulateAndGet(covered, Math::max);
          lastForceNanos = System.nanoTime();
        }
      }

      @Override
      public void writeZeros(long from, long to) throws IOException {
        if (isWriteBroken) {
          throw new IOException("Input/output error");
        }
        zeroBytesWritten.addAndGet(to - from);
        if (isZeroFillFree) {
          real.writeZeros(from, to);
          return;
        }
        long grow = Math.max(0, to - Math.max(from, size));
        long room = freeBytes.get();
        if (grow > room) {
          real.writeZeros(from, to - (grow - room));
          freeBytes.addAndGet(-room);
          size = Math.max(size, to - (grow - room));
          throw new IOException("No space left on device");
        }
        real.writeZeros(from, to);
        freeBytes.addAndGet(-grow);
        size = Math.max(size, to);
      }

      /** Appended {@code bytes}: over zeros written ahead, then growing the file. */
      private void grow(long bytes) {
        position += bytes;
        if (position > size) {
          freeBytes.addAndGet(-(position - size));
          size = position;
        }
      }

      @Override
      public void truncate(long bytes) throws IOException {
        real.truncate(bytes);
        freeBytes.addAndGet(size - bytes);
        size = bytes;
        position = bytes;
      }

      @Override
      public void close() throws IOException {
        real.close();
      }
    };
  }

  @Override
  public void delete(Path file) throws IOException {
    if (Files.exists(file)) {
      freeBytes.addAndGet(Files.size(file));
    }
    Files.deleteIfExists(file);
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    DiskLogFiles.INSTANCE.syncDirectory(dir);
  }

  @Override
  public long usableSpace(Path dir) {
    return freeBytes.get();
  }
}
