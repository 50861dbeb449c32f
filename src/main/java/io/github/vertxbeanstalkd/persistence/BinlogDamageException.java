package io.github.vertxbeanstalkd.persistence;

import java.io.IOException;
import java.nio.file.Path;

/** The binlog cannot be read back as written: start-up refuses, naming the file and the offset. */
public final class BinlogDamageException extends IOException {
  private static final long serialVersionUID = 1L;
  private final transient Path file;
  private final long offset;

  BinlogDamageException(Path file, long offset, String problem) {
    super("binlog: " + file + " at offset " + offset + ": " + problem
        + "; to start anyway, skipping what cannot be read, set binlog.recover to true");
    this.file = file;
    this.offset = offset;
  }

  public Path file() {
    return file;
  }

  public long offset() {
    return offset;
  }
}
