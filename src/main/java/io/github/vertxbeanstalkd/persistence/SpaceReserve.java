package io.github.vertxbeanstalkd.persistence;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A file of zeros ({@code dir/reserve}) that holds disk space for the day the disk fills up. When a
 * write fails for lack of space, the writer deletes it and the freed space takes the records that
 * must still go through (deletes, and compaction, which frees whole segments). Puts are refused
 * meanwhile. The reserve is written again once there is room, and puts resume then.
 *
 * <p>On a copy-on-write or compressing file system (btrfs, ZFS) zeros may take no space, so the
 * reserve may hold less than it claims; the log then stalls instead of failing when space runs out.
 */
final class SpaceReserve {
  static final String FILE_NAME = "reserve";
  private static final int CHUNK_BYTES = 64 * 1024;

  private final LogFiles files;
  private final Path file;
  private final long bytes;

  SpaceReserve(LogFiles files, Path dir, long bytes) {
    this.files = files;
    this.file = dir.resolve(FILE_NAME);
    this.bytes = bytes;
  }

  /** ENOSPC and EDQUOT: the write did not happen for lack of room, and can be tried again later. */
  static boolean isNoSpace(IOException e) {
    String m = e.getMessage();
    return m != null && (m.contains("No space left on device") || m.contains("Disk quota exceeded"));
  }

  boolean isHeld() {
    try {
      return Files.size(file) >= bytes;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Writes the reserve if it is not whole. Returns false when there is no room for it.
   *
   * @throws IOException on any failure other than a lack of space
   */
  boolean ensure() throws IOException {
    if (isHeld()) {
      return true;
    }
    files.delete(file);
    ByteBuffer zeros = ByteBuffer.allocate(CHUNK_BYTES);
    try (LogFiles.LogFile f = files.create(file)) {
      for (long left = bytes; left > 0; left -= CHUNK_BYTES) {
        zeros.clear().limit((int) Math.min(CHUNK_BYTES, left));
        f.write(new ByteBuffer[] {zeros});
      }
      // Space is allocated for real only when the data goes to disk on delayed-allocation file systems.
      f.force();
    } catch (IOException e) {
      files.delete(file);
      if (isNoSpace(e)) {
        return false;
      }
      throw e;
    }
    return true;
  }

  /** Deletes the reserve; returns false if there was none to give. */
  boolean release() throws IOException {
    if (!Files.exists(file)) {
      return false;
    }
    files.delete(file);
    return true;
  }
}
