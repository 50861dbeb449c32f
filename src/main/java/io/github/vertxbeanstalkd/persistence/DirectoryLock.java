package io.github.vertxbeanstalkd.persistence;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on {@code dir/lock}, held while a server uses the binlog directory, so that a
 * second server on the same directory fails at start (BEHAVIOURS.md, {@code -b}). The operating
 * system drops the lock when the process dies, so a crash leaves no stale lock behind.
 *
 * @see <a href="{@docRoot}/../spec/BEHAVIOURS.html">BEHAVIOURS.md</a>
 */
final class DirectoryLock implements AutoCloseable {
  static final String FILE_NAME = "lock";
  private final FileChannel channel;
  private final FileLock lock;

  private DirectoryLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /** @throws IOException naming the directory when another server (or this one) holds it */
  static DirectoryLock acquire(Path dir) throws IOException {
    Path file = dir.resolve(FILE_NAME);
    FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    } catch (IOException e) {
      channel.close();
      throw e;
    }
    if (lock == null) {
      channel.close();
      throw new IOException("binlog: " + dir + " is in use by another server (" + file + " is locked)");
    }
    try {
      // For people looking at the directory: which process holds it. Best effort, so that a server
      // still starts on a full disk.
      channel.truncate(0);
      byte[] pid = (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII);
      channel.write(ByteBuffer.wrap(pid));
    } catch (IOException e) {
      // The lock is what matters, and it is held.
    }
    return new DirectoryLock(channel, lock);
  }

  @Override
  public void close() throws IOException {
    try {
      lock.release();
    } finally {
      channel.close();
    }
  }
}
