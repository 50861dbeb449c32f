package io.github.vertxbeanstalkd.bench;

/**
 * Job bodies for bus cases, as text (EVENTBUS.md's {@code body} field): the same printable letters
 * as the TCP generator's, and for cycle a send time (System.nanoTime, 16 hex digits) at the start.
 */
final class BusBodies {
  static final int STAMP_CHARS = 16;
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private BusBodies() {}

  /** A body of {@code chars} letters, the TCP generator's pattern. */
  static String plain(int chars) {
    char[] body = new char[chars];
    for (int i = 0; i < chars; i++) {
      body[i] = (char) ('a' + i % 26);
    }
    return new String(body);
  }

  /** {@code template} with its first 16 characters replaced by {@code nanos} in hex. */
  static String stamped(String template, long nanos) {
    char[] body = template.toCharArray();
    for (int i = STAMP_CHARS - 1; i >= 0; i--) {
      body[i] = HEX[(int) (nanos & 0xF)];
      nanos >>>= 4;
    }
    return new String(body);
  }

  /** The send time {@link #stamped} wrote into {@code body}. */
  static long stampOf(CharSequence body) {
    return Long.parseUnsignedLong(body, 0, STAMP_CHARS, 16);
  }
}
