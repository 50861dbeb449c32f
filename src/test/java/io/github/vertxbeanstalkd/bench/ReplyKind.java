package io.github.vertxbeanstalkd.bench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** The first word of a server reply line, for the replies the load generator expects. */
enum ReplyKind {
  INSERTED, RESERVED, DELETED, USING, WATCHING, TIMED_OUT, DEADLINE_SOON,
  /** Anything else: an error reply or garbage; always a protocol error for the generator. */
  OTHER;

  private static final ReplyKind[] MATCHABLE = {
      INSERTED, RESERVED, DELETED, USING, WATCHING, TIMED_OUT, DEADLINE_SOON};
  private static final byte[][] WORDS = new byte[MATCHABLE.length][];

  static {
    for (int i = 0; i < MATCHABLE.length; i++) {
      WORDS[i] = MATCHABLE[i].name().getBytes(StandardCharsets.US_ASCII);
    }
  }

  /**
   * The kind of the line in {@code in} from {@code start} to {@code end} (CRLF excluded), read
   * with absolute gets so no bytes are copied. The word must be followed by a space or the end.
   */
  static ReplyKind of(ByteBuffer in, int start, int end) {
    for (int i = 0; i < MATCHABLE.length; i++) {
      byte[] word = WORDS[i];
      int wordEnd = start + word.length;
      if (wordEnd > end || (wordEnd < end && in.get(wordEnd) != ' ')) {
        continue;
      }
      boolean isMatch = true;
      for (int j = 0; j < word.length && isMatch; j++) {
        isMatch = in.get(start + j) == word[j];
      }
      if (isMatch) {
        return MATCHABLE[i];
      }
    }
    return OTHER;
  }
}
