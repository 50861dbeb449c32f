package io.github.vertxbeanstalkd.protocol;

import java.util.Objects;

/**
 * A valid {@code put} line: the connection must now read {@code bytes + 2} bytes. A size above
 * max-job-size is still a header (the body is swallowed and answered JOB_TOO_BIG), which is why
 * {@code bytes} is the full unsigned 32-bit value.
 *
 * <p>A parser hands out the same header for each put line it reads (one object per connection,
 * not one per put): it holds the line just parsed until the parser reads its next line, which a
 * connection does only once the put's body is read.
 */
public final class PutHeader implements ParsedLine {
  private int priority;
  private int delaySeconds;
  private int ttrSeconds;
  private long bytes;

  public PutHeader(int priority, int delaySeconds, int ttrSeconds, long bytes) {
    set(priority, delaySeconds, ttrSeconds, bytes);
  }

  /** The parser's own header, filled again for its next put line. */
  PutHeader set(int priority, int delaySeconds, int ttrSeconds, long bytes) {
    this.priority = priority;
    this.delaySeconds = delaySeconds;
    this.ttrSeconds = ttrSeconds;
    this.bytes = bytes;
    return this;
  }

  public int priority() {
    return priority;
  }

  public int delaySeconds() {
    return delaySeconds;
  }

  public int ttrSeconds() {
    return ttrSeconds;
  }

  public long bytes() {
    return bytes;
  }

  /** Builds the command once the body and its two trailing bytes have been read. */
  public Command.Put withBody(JobBytes body, boolean hasCrlf) {
    return new Command.Put(priority, delaySeconds, ttrSeconds, body, hasCrlf);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PutHeader h && h.priority == priority && h.delaySeconds == delaySeconds
        && h.ttrSeconds == ttrSeconds && h.bytes == bytes;
  }

  @Override
  public int hashCode() {
    return Objects.hash(priority, delaySeconds, ttrSeconds, bytes);
  }

  @Override
  public String toString() {
    return "PutHeader[priority=" + priority + ", delaySeconds=" + delaySeconds + ", ttrSeconds=" + ttrSeconds
        + ", bytes=" + bytes + "]";
  }
}
