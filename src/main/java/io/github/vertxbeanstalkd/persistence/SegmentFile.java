package io.github.vertxbeanstalkd.persistence;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;

/**
 * Names segment files ({@code binlog.000001}, ...) and writes and checks their header:
 * {@code [8 bytes magic][u32 format version][u64 segment index][u32 crc32c of the 20 bytes before]}.
 */
final class SegmentFile {
  /** "vbsblog" and a newline, so a file mangled by a text-mode copy fails the magic check. */
  static final byte[] MAGIC = "vbsblog\n".getBytes(StandardCharsets.US_ASCII);
  /** The only version this code writes and reads; see FORMAT.md before changing it. */
  static final int FORMAT_VERSION = 1;
  static final int HEADER_BYTES = 8 + 4 + 8 + 4;
  private static final Pattern NAME = Pattern.compile("binlog\\.(\\d{6,18})");
  /**
   * The highest index a server starts on: the ledger packs an index into 32 bits, and from here a
   * server would need 2^31 more segments to get past them. A log never gets here by itself.
   */
  static final long MAX_INDEX = Integer.MAX_VALUE;

  private SegmentFile() {}

  static Path path(Path dir, long index) {
    return dir.resolve(name(index));
  }

  private static String name(long index) {
    return String.format("binlog.%06d", index);
  }

  /**
   * The segment index a file name stands for, or -1 if it is not a segment file. Only the name
   * {@link #path} gives an index counts: otherwise two files (binlog.000007 and binlog.0000007)
   * could claim one index, and which one replay read first would be the file system's listing order.
   */
  static long indexOf(Path file) {
    String name = file.getFileName().toString();
    Matcher m = NAME.matcher(name);
    if (!m.matches()) {
      return -1;
    }
    long index = Long.parseLong(m.group(1));
    return index > 0 && name.equals(name(index)) ? index : -1;
  }

  /**
   * The highest index any entry of {@code dir} is named for, whatever it is (a directory named like
   * a segment is not read, but no segment can be written in its place either); 0 when none is.
   */
  static long highestNamedIndex(Path dir) throws IOException {
    long highest = 0;
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path p : entries) {
        highest = Math.max(highest, indexOf(p));
      }
    }
    return highest;
  }

  /** Segment files in {@code dir}, oldest first. */
  static List<Path> list(Path dir) throws IOException {
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path p : entries) {
        if (indexOf(p) > 0 && Files.isRegularFile(p)) {
          files.add(p);
        }
      }
    }
    files.sort((a, b) -> Long.compare(indexOf(a), indexOf(b)));
    return files;
  }

  static ByteBuffer header(long index) {
    ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES);
    b.put(MAGIC).putInt(FORMAT_VERSION).putLong(index);
    CRC32C crc = new CRC32C();
    crc.update(b.array(), 0, HEADER_BYTES - 4);
    b.putInt((int) crc.getValue());
    return b.flip();
  }

  /** Why the header of segment {@code index} is unusable, or null when it is good. */
  static String headerProblem(byte[] data, long index) {
    if (data.length < HEADER_BYTES) {
      return "file of " + data.length + " bytes is shorter than a segment header";
    }
    ByteBuffer b = ByteBuffer.wrap(data, 0, HEADER_BYTES);
    for (byte m : MAGIC) {
      if (b.get() != m) {
        return "not a binlog segment (bad magic)";
      }
    }
    int version = b.getInt();
    long storedIndex = b.getLong();
    CRC32C crc = new CRC32C();
    crc.update(data, 0, HEADER_BYTES - 4);
    if ((int) crc.getValue() != b.getInt()) {
      return "segment header checksum mismatch";
    }
    if (storedIndex != index) {
      return "header says segment " + storedIndex;
    }
    return version == FORMAT_VERSION ? null : "format version " + version;
  }

  /** True when the header is intact but names a format version this code cannot read. */
  static boolean isOtherVersion(byte[] data) {
    if (data.length < HEADER_BYTES) {
      return false;
    }
    CRC32C crc = new CRC32C();
    crc.update(data, 0, HEADER_BYTES - 4);
    ByteBuffer b = ByteBuffer.wrap(data);
    return ByteBuffer.wrap(data, 0, MAGIC.length).equals(ByteBuffer.wrap(MAGIC))
        && (int) crc.getValue() == b.getInt(HEADER_BYTES - 4) && b.getInt(MAGIC.length) != FORMAT_VERSION;
  }
}
