package io.github.vertxbeanstalkd.durability;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.zip.CRC32C;

/**
 * A put as a producer sent it, before any reply. The body starts with a unique token and '|'; the
 * rest is random bytes (CR LF included); only its length and checksum are kept, to keep the ledger
 * small over thousands of puts.
 */
record SentPut(String token, String tube, long pri, long delaySeconds, int bodyBytes, long bodyCrc,
    long sentMillis) {

  /** A body of {@code bytes} (at least the token's length): the token, '|', then random bytes. */
  static byte[] body(String token, int bytes, Random random) {
    byte[] head = (token + "|").getBytes(StandardCharsets.ISO_8859_1);
    byte[] body = new byte[Math.max(bytes, head.length)];
    random.nextBytes(body);
    System.arraycopy(head, 0, body, 0, head.length);
    return body;
  }

  static SentPut of(String token, String tube, long pri, long delaySeconds, byte[] body, long sentMillis) {
    return new SentPut(token, tube, pri, delaySeconds, body.length, crc(body), sentMillis);
  }

  /** The token a body starts with, or null when it has none. */
  static String tokenOf(byte[] body) {
    for (int i = 0; i < body.length && i < 64; i++) {
      if (body[i] == '|') {
        return new String(body, 0, i, StandardCharsets.ISO_8859_1);
      }
    }
    return null;
  }

  boolean isBodyOf(byte[] body) {
    return body.length == bodyBytes && crc(body) == bodyCrc;
  }

  /** The job's state right after this put: ready, or delayed until its deadline. */
  Outcome outcome() {
    return delaySeconds == 0 ? Outcome.ready(pri) : Outcome.delayed(pri, delaySeconds * 1000, sentMillis);
  }

  private static long crc(byte[] body) {
    CRC32C c = new CRC32C();
    c.update(body);
    return c.getValue();
  }
}
