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
  final AtomicLong freeBytes = new AtomicLong(Long.MAX_VALUE / 2);
  volatile long forceDelayMillis;
  volatile boolean isWriteBroken;
  volatile boolean isForceBroken;
  volatile long lastWriteNanos;
  volatile long lastForceNanos;

  @Override
  public LogFile create(Path file) throws IOException {
    LogFile real = DiskLogFiles.INSTANCE.create(file);
    boolean isSegment = SegmentFile.indexOf(file) > 0;
    return new LogFile() {
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
        long room = freeBytes.get();
        if (total > room) {
          // What a real full disk does: part of the data lands, then ENOSPC.
          ByteBuffer prefix = ByteBuffer.allocate((int) room);
          for (ByteBuffer b : buffers) {
            ByteBuffer d = b.duplicate();
            d.limit(d.position() + Math.min(d.remaining(), prefix.remaining()));
            prefix.put(d);
          }
          real.write(new ByteBuffer[] {prefix.flip()});
          size += room;
          freeBytes.addAndGet(-room);
          throw new IOException("No space left on device");
        }
        real.write(buffers);
        size += total;
        freeBytes.addAndGet(-total);
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
            Thread.sleep(forceDelayMillis);
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
      public void truncate(long bytes) throws IOException {
        real.truncate(bytes);
        freeBytes.addAndGet(size - bytes);
        size = bytes;
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
