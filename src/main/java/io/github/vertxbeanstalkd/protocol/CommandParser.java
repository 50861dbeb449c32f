package io.github.vertxbeanstalkd.protocol;

import java.nio.charset.StandardCharsets;
import java.util.function.IntPredicate;

/**
 * Turns one command line (without its CR LF) into a {@link ParsedLine}: the {@link Verb} table
 * finds the command word and reads its arguments as beanstalkd 1.12 does (BEHAVIOURS.md 1 to 4).
 * The line is read as bytes, in place, with no String or object of its own per line; a parser is
 * therefore one connection's, used on one thread.
 *
 * @see <a href="{@docRoot}/../spec/BEHAVIOURS.html">BEHAVIOURS.md</a>
 */
public final class CommandParser {
  /** BEHAVIOURS.md 1: the line buffer holds 224 bytes, CR LF included. */
  public static final int MAX_LINE_BYTES = 224;
  public static final int MAX_TUBE_NAME_BYTES = 200;
  private static final long U32_MAX = 0xFFFF_FFFFL;

  private final long maxJobSizeBytes;
  private final Arguments arguments;

  public CommandParser(long maxJobSizeBytes) {
    this.maxJobSizeBytes = maxJobSizeBytes;
    this.arguments = new Arguments(maxJobSizeBytes);
  }

  public long maxJobSizeBytes() {
    return maxJobSizeBytes;
  }

  /** Parses {@code length} bytes of {@code line}, which the parser reads only during the call. */
  public ParsedLine parse(byte[] line, int length) {
    // BEHAVIOURS.md 1: an over-long line or a NUL byte is BAD_FORMAT before any word is matched.
    if (length > MAX_LINE_BYTES - 2) {
      return Command.Invalid.BAD_FORMAT;
    }
    for (int i = 0; i < length; i++) {
      if (line[i] == 0) {
        return Command.Invalid.BAD_FORMAT;
      }
    }
    Verb verb = Verb.matching(line, length);
    if (verb == null) {
      return Command.Invalid.UNKNOWN_COMMAND;
    }
    return verb.read(arguments.reset(line, length, verb.wordLength()));
  }

  /** Parses a line given as ISO-8859-1 text, one char per byte. */
  public ParsedLine parse(String line) {
    byte[] bytes = line.getBytes(StandardCharsets.ISO_8859_1);
    return parse(bytes, bytes.length);
  }

  /** protocol.txt: letters, digits and {@code - + / ; . $ _ ( )}; never starting with a hyphen. */
  public static boolean isValidTubeName(String name) {
    int n = name.length();
    if (n == 0 || n > MAX_TUBE_NAME_BYTES || name.charAt(0) == '-') {
      return false;
    }
    for (int i = 0; i < n; i++) {
      if (!isNameChar(name.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  static boolean isNameChar(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
        || c == '-' || c == '+' || c == '/' || c == ';' || c == '.' || c == '$' || c == '_'
        || c == '(' || c == ')';
  }

  /**
   * The rest of a line after its command word, read left to right without making a String per
   * number; one per parser, reset for each line.
   */
  static final class Arguments {
    private final long maxJobSizeBytes;
    /** The parser's one put header, filled for each put line (see {@link PutHeader}). */
    private final PutHeader putHeader = new PutHeader(0, 0, 0, 0);
    private byte[] line;
    private int length;
    private int pos;
    private boolean ok = true;

    Arguments(long maxJobSizeBytes) {
      this.maxJobSizeBytes = maxJobSizeBytes;
    }

    Arguments reset(byte[] line, int length, int pos) {
      this.line = line;
      this.length = length;
      this.pos = pos;
      this.ok = true;
      return this;
    }

    PutHeader putHeader(int priority, int delaySeconds, int ttrSeconds, long bytes) {
      return putHeader.set(priority, delaySeconds, ttrSeconds, bytes);
    }

    /** The server's max-job-size, which decides how a put's trailing text counts (BEHAVIOURS.md 4). */
    long maxJobSizeBytes() {
      return maxJobSizeBytes;
    }

    boolean atEnd() {
      return pos == length;
    }

    /** A number read so far did not parse. */
    boolean hasFailed() {
      return !ok;
    }

    /** Every number read so far parsed, and nothing is left on the line. */
    boolean isComplete() {
      return ok && atEnd();
    }

    /** Everything not read yet, such as a tube name. */
    String rest() {
      return new String(line, pos, length - pos, StandardCharsets.ISO_8859_1);
    }

    /** The byte at {@code at} as an unsigned value, as a char of ISO-8859-1 text. */
    private int at(int at) {
      return line[at] & 0xFF;
    }

    void skipWhile(IntPredicate isSkipped) {
      while (pos < length && isSkipped.test(at(pos))) {
        pos++;
      }
    }

    String takeWhile(IntPredicate isTaken) {
      int start = pos;
      skipWhile(isTaken);
      return new String(line, start, pos - start, StandardCharsets.ISO_8859_1);
    }

    /** Reads {@code c} if it comes next. */
    boolean take(char c) {
      if (pos < length && at(pos) == c) {
        pos++;
        return true;
      }
      return false;
    }

    /** Reads the next decimal digit and returns its value, or -1 if no digit comes next. */
    int digit() {
      int c;
      if (pos < length && (c = at(pos)) >= '0' && c <= '9') {
        pos++;
        return c - '0';
      }
      return -1;
    }

    /** BEHAVIOURS.md 3: an unsigned 32-bit number; 4294967296 fails. */
    long u32() {
      long value = u64();
      return Long.compareUnsigned(value, U32_MAX) > 0 ? fail() : value;
    }

    /**
     * BEHAVIOURS.md 3 (quirk kept): spaces before the number are skipped, then plain digits of an
     * unsigned 64-bit value, leading zeros accepted. Fails on no digits, on overflow, or once an
     * earlier number has failed.
     */
    long u64() {
      if (!ok) {
        return 0;
      }
      while (pos < length && line[pos] == ' ') {
        pos++;
      }
      int start = pos;
      long value = 0;
      boolean isOverflow = false;
      for (int digit; (digit = digit()) >= 0; ) {
        // value * 10 + digit must stay below 2^64, compared as unsigned.
        if (Long.compareUnsigned(value, Long.divideUnsigned(-1L - digit, 10)) > 0) {
          isOverflow = true;
        }
        value = value * 10 + digit;
      }
      return pos == start || isOverflow ? fail() : value;
    }

    private long fail() {
      ok = false;
      return 0;
    }
  }
}
