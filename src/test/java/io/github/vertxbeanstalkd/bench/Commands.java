package io.github.vertxbeanstalkd.bench;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;

/** The protocol bytes the generator sends, built once per case. */
final class Commands {
  static final byte[] RESERVE = ascii("reserve\r\n");
  static final byte[] DELETE_PREFIX = ascii("delete ");
  static final byte[] IGNORE_DEFAULT = ascii("ignore default\r\n");
  /** Priority 1024, no delay; a TTR long enough that no job is released during a case. */
  private static final String PUT_ARGUMENTS = "put 1024 0 600 ";
  /** Cycle jobs carry their send time (System.nanoTime, 8 bytes big-endian) at body offset 0. */
  static final int TIMESTAMP_BYTES = 8;

  /** What a command in flight was, so its reply can be checked against it. */
  static final byte TAG_NONE = 0;
  static final byte TAG_SETUP = 1;
  static final byte TAG_PUT = 2;
  static final byte TAG_RESERVE = 3;
  static final byte TAG_DELETE = 4;

  private Commands() {}

  static byte[] use(String tube) {
    return ascii("use " + tube + "\r\n");
  }

  static byte[] watch(String tube) {
    return ascii("watch " + tube + "\r\n");
  }

  /** A whole put command, line and body, with a printable body of {@code bodyBytes}. */
  static byte[] put(int bodyBytes) {
    byte[] line = ascii(PUT_ARGUMENTS + bodyBytes + "\r\n");
    byte[] command = new byte[line.length + bodyBytes + 2];
    System.arraycopy(line, 0, command, 0, line.length);
    for (int i = 0; i < bodyBytes; i++) {
      command[line.length + i] = (byte) ('a' + i % 26);
    }
    command[command.length - 2] = '\r';
    command[command.length - 1] = '\n';
    return command;
  }

  /** Where the body starts in {@link #put}'s command. */
  static int bodyOffset(int bodyBytes) {
    return (PUT_ARGUMENTS + bodyBytes + "\r\n").length();
  }

  /** A tube no other case uses, so cases never see each other's jobs. */
  static String freshTube() {
    return "bench-" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1);
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
