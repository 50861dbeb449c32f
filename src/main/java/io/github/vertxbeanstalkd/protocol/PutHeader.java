package io.github.vertxbeanstalkd.protocol;

/**
 * A valid {@code put} line: the connection must now read {@code bytes + 2} bytes. A size above
 * max-job-size is still a header (the body is swallowed and answered JOB_TOO_BIG), which is why
 * {@code bytes} is the full unsigned 32-bit value.
 */
public record PutHeader(int priority, int delaySeconds, int ttrSeconds, long bytes) implements ParsedLine {

  /** Builds the command once the body and its two trailing bytes have been read. */
  public Command.Put withBody(JobBytes body, boolean hasCrlf) {
    return new Command.Put(priority, delaySeconds, ttrSeconds, body, hasCrlf);
  }
}
