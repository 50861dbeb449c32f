package io.github.vertxbeanstalkd.replication.election;

import io.github.vertxbeanstalkd.persistence.AtomicFile;
import java.nio.file.Path;

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
  private final AtomicFile file;

  public LedTermFile(Path dir) {
    this.file = new AtomicFile(dir.resolve(NAME));
  }

  /** The term written last, or -1. */
  public long read() {
    String text = file.read();
    try {
      return text == null ? -1 : Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** Replaces the term at once (a crash leaves the old one or the new one), and syncs it. */
  public void write(long term) {
    file.write(Long.toString(term));
  }
}
