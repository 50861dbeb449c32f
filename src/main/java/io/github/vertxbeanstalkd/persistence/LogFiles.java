package io.github.vertxbeanstalkd.persistence;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * The file operations the log writer needs, and nothing more, so tests can count fsyncs or make the
 * disk fill up. {@link DiskLogFiles} is the real one.
 */
interface LogFiles {

  /** One file open for appending. */
  interface LogFile extends Closeable {
    /** Writes every remaining byte of {@code buffers}, or throws having written some prefix of them. */
    void write(ByteBuffer[] buffers) throws IOException;

    /** fsync of the data (fdatasync where available). */
    void force() throws IOException;

    /** Cuts the file to {@code bytes} and appends from there on. */
    void truncate(long bytes) throws IOException;

    /**
     * Writes zeros from {@code from} to {@code to} without moving where appends go: the file takes
     * that space now, and appends there overwrite instead of growing it. Throws having written some
     * prefix of them.
     */
    void writeZeros(long from, long to) throws IOException;
  }

  /** Creates a new, empty file; fails if it exists. */
  LogFile create(Path file) throws IOException;

  /**
   * Creates a new, empty file whose writes are durable when they return, so that {@link
   * LogFile#force()} has little or nothing left to do, where the file system allows it; elsewhere
   * a file like {@link #create}'s. Fails if it exists.
   */
  LogFile createWriteThrough(Path file) throws IOException;

  /** Deletes the file if it exists. */
  void delete(Path file) throws IOException;

  /** Makes created and deleted names in {@code dir} durable. */
  void syncDirectory(Path dir) throws IOException;

  /** Bytes this process may still write in the file system of {@code dir}. */
  long usableSpace(Path dir) throws IOException;
}
