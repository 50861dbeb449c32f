package io.github.vertxbeanstalkd.protocol;

import java.nio.charset.StandardCharsets;

/**
 * Turns one command line (without its CR LF) into a {@link ParsedLine}, with the word matching,
 * argument rules and error precedence of beanstalkd 1.12 (BEHAVIOURS.md sections 1 to 4).
 */
public final class CommandParser {
  /** BEHAVIOURS.md 1: the line buffer holds 224 bytes, CR LF included. */
  public static final int MAX_LINE_BYTES = 224;
  public static final int MAX_TUBE_NAME_BYTES = 200;
  private static final long U32_MAX = 0xFFFF_FFFFL;

  private final long maxJobSizeBytes;

  public CommandParser(long maxJobSizeBytes) {
    this.maxJobSizeBytes = maxJobSizeBytes;
  }

  public long maxJobSizeBytes() {
    return maxJobSizeBytes;
  }

  /** Parses {@code length} bytes of {@code line}. */
  public ParsedLine parse(byte[] line, int length) {
    return parse(new String(line, 0, length, StandardCharsets.ISO_8859_1));
  }

  /** Parses a line given as ISO-8859-1 text, one char per byte. */
  public ParsedLine parse(String line) {
    if (line.length() > MAX_LINE_BYTES - 2 || line.indexOf('\0') >= 0) {
      return Command.Invalid.BAD_FORMAT;
    }
    // protocol.txt: the server matches each command word including the space that follows words
    // taking arguments; the order below is the reference's, so "reserve-job" without an id falls
    // into "reserve" and fails its length check (BEHAVIOURS.md 2).
    if (line.startsWith("put ")) {
      return put(line);
    } else if (line.startsWith("peek ")) {
      return jobId(line, 5, Command.Peek::new);
    } else if (line.startsWith("peek-ready")) {
      return exact(line, "peek-ready", Command.PeekState.READY);
    } else if (line.startsWith("peek-delayed")) {
      return exact(line, "peek-delayed", Command.PeekState.DELAYED);
    } else if (line.startsWith("peek-buried")) {
      return exact(line, "peek-buried", Command.PeekState.BURIED);
    } else if (line.startsWith("reserve-with-timeout ")) {
      return reserveWithTimeout(line);
    } else if (line.startsWith("reserve-job ")) {
      return jobId(line, 12, Command.ReserveJob::new);
    } else if (line.startsWith("reserve")) {
      return exact(line, "reserve", Command.Reserve.FOREVER);
    } else if (line.startsWith("delete ")) {
      return jobId(line, 7, Command.Delete::new);
    } else if (line.startsWith("release ")) {
      Args a = new Args(line, 8);
      long id = a.u64();
      long pri = a.u32();
      long delay = a.u32();
      return a.ok() && a.atEnd() ? new Command.Release(id, (int) pri, (int) delay) : Command.Invalid.BAD_FORMAT;
    } else if (line.startsWith("bury ")) {
      Args a = new Args(line, 5);
      long id = a.u64();
      long pri = a.u32();
      return a.ok() && a.atEnd() ? new Command.Bury(id, (int) pri) : Command.Invalid.BAD_FORMAT;
    } else if (line.startsWith("kick ")) {
      Args a = new Args(line, 5);
      long bound = a.u32();
      return a.ok() && a.atEnd() ? new Command.Kick(bound) : Command.Invalid.BAD_FORMAT;
    } else if (line.startsWith("kick-job ")) {
      return jobId(line, 9, Command.KickJob::new);
    } else if (line.startsWith("touch ")) {
      return jobId(line, 6, Command.Touch::new);
    } else if (line.startsWith("stats-job ")) {
      return jobId(line, 10, Command.StatsJob::new);
    } else if (line.startsWith("stats-tube ")) {
      String name = line.substring(11);
      return isValidTubeName(name) ? new Command.StatsTube(name) : Command.Invalid.BAD_FORMAT;
    } else if (line.startsWith("stats")) {
      return exact(line, "stats", Command.Stats.INSTANCE);
    } else if (line.startsWith("use ")) {
      String name = line.substring(4);
      return isValidTubeName(name) ? new Command.Use(name) : Command.Invalid.BAD_FORMAT;
    } else if (line.startsWith("watch ")) {
      String name = line.substring(6);
      return isValidTubeName(name) ? new Command.Watch(name) : Command.Invalid.BAD_FORMAT;
    } else if (line.startsWith("ignore ")) {
      String name = line.substring(7);
      return isValidTubeName(name) ? new Command.Ignore(name) : Command.Invalid.BAD_FORMAT;
    } else if (line.startsWith("list-tubes-watched")) {
      return exact(line, "list-tubes-watched", Command.ListTubesWatched.INSTANCE);
    } else if (line.startsWith("list-tube-used")) {
      return exact(line, "list-tube-used", Command.ListTubeUsed.INSTANCE);
    } else if (line.startsWith("list-tubes")) {
      return exact(line, "list-tubes", Command.ListTubes.INSTANCE);
    } else if (line.startsWith("quit")) {
      // BEHAVIOURS.md 2 (quirk kept): any line starting with "quit" closes the connection.
      return Command.Quit.INSTANCE;
    } else if (line.startsWith("pause-tube")) {
      return pauseTube(line);
    }
    return Command.Invalid.UNKNOWN_COMMAND;
  }

  private ParsedLine put(String line) {
    Args a = new Args(line, 4);
    long pri = a.u32();
    long delay = a.u32();
    long ttr = a.u32();
    long bytes = a.u32();
    if (!a.ok()) {
      return Command.Invalid.BAD_FORMAT;
    }
    // BEHAVIOURS.md 4: the size check comes before the trailing-text check.
    if (bytes > maxJobSizeBytes) {
      return new PutHeader((int) pri, (int) delay, (int) ttr, bytes);
    }
    if (!a.atEnd()) {
      return Command.Invalid.BAD_FORMAT;
    }
    return new PutHeader((int) pri, (int) delay, (int) ttr, bytes);
  }

  /**
   * BEHAVIOURS.md 3 (required: JavaBeanstalkClient sends {@code -1} to wait forever): 1.12 reads
   * the timeout with {@code strtol(s, &end, 10)} into a C {@code int} and ignores {@code end}. So
   * C white space and a sign may come first, anything may follow the digits, no digits at all read
   * as 0, only a value outside a 64-bit long is BAD_FORMAT, and the long keeps its low 32 bits:
   * 4294967296 is 0, 4294967297 is 1, and 2147483648 or -1 is negative, which waits like
   * {@code reserve} (but is still counted as {@code reserve-with-timeout}).
   */
  private static ParsedLine reserveWithTimeout(String line) {
    int pos = "reserve-with-timeout ".length();
    int n = line.length();
    while (pos < n && isCSpace(line.charAt(pos))) {
      pos++;
    }
    boolean isNegative = false;
    if (pos < n && (line.charAt(pos) == '-' || line.charAt(pos) == '+')) {
      isNegative = line.charAt(pos) == '-';
      pos++;
    }
    // Accumulated as a negative number, so that -9223372036854775808 fits as strtol's does.
    long negated = 0;
    for (char c; pos < n && (c = line.charAt(pos)) >= '0' && c <= '9'; pos++) {
      int digit = c - '0';
      if (negated < (Long.MIN_VALUE + digit) / 10) {
        return Command.Invalid.BAD_FORMAT; // strtol's ERANGE
      }
      negated = negated * 10 - digit;
    }
    if (!isNegative && negated == Long.MIN_VALUE) {
      return Command.Invalid.BAD_FORMAT; // 9223372036854775808: ERANGE on the positive side
    }
    int seconds = (int) (isNegative ? negated : -negated); // C's long-to-int conversion
    return new Command.Reserve(seconds < 0 ? -1 : seconds);
  }

  /** C's {@code isspace} in the "C" locale, which {@code strtol} skips before the number. */
  private static boolean isCSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\u000b' || c == '\f' || c == '\r';
  }

  private static ParsedLine pauseTube(String line) {
    // BEHAVIOURS.md 10 (quirk kept): cmd-pause-tube is counted before the name rules are checked
    // (though after the name bytes and the delay parse), and spaces before the name are skipped,
    // none required.
    Command.Invalid badFormat = new Command.Invalid(Reply.Word.BAD_FORMAT, Counter.PAUSE_TUBE);
    int start = "pause-tube".length();
    while (start < line.length() && line.charAt(start) == ' ') {
      start++;
    }
    int end = start;
    while (end < line.length() && isNameChar(line.charAt(end))) {
      end++;
    }
    String name = line.substring(start, end);
    Args a = new Args(line, end);
    long seconds = a.u32();
    if (!a.ok() || !a.atEnd()) {
      return Command.Invalid.BAD_FORMAT;
    }
    if (!isValidTubeName(name)) {
      // 1.12 counts a line whose name bytes and delay parse but whose name breaks a rule.
      return badFormat;
    }
    return new Command.PauseTube(name, seconds);
  }

  private interface IdCommand {
    Command of(long id);
  }

  private static ParsedLine jobId(String line, int start, IdCommand make) {
    Args a = new Args(line, start);
    long id = a.u64();
    return a.ok() && a.atEnd() ? make.of(id) : Command.Invalid.BAD_FORMAT;
  }

  private static ParsedLine exact(String line, String word, Command command) {
    return line.length() == word.length() ? command : Command.Invalid.BAD_FORMAT;
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

  private static boolean isNameChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
        || c == '-' || c == '+' || c == '/' || c == ';' || c == '.' || c == '$' || c == '_'
        || c == '(' || c == ')';
  }

  /** Reads numbers the way 1.12's read_u32/read_u64 do: spaces skipped, then digits only. */
  private static final class Args {
    private final String line;
    private int pos;
    private boolean ok = true;

    Args(String line, int pos) {
      this.line = line;
      this.pos = pos;
    }

    boolean ok() {
      return ok;
    }

    boolean atEnd() {
      return pos == line.length();
    }

    long u32() {
      long value = digits();
      return Long.compareUnsigned(value, U32_MAX) > 0 ? fail() : value;
    }

    long u64() {
      return digits();
    }

    private long fail() {
      ok = false;
      return 0;
    }

    /**
     * Reads spaces, then an unsigned decimal number of at most 64 bits without making a String;
     * leading zeros are accepted. Fails on no digits or on overflow.
     */
    private long digits() {
      if (!ok) {
        return 0;
      }
      while (pos < line.length() && line.charAt(pos) == ' ') {
        pos++;
      }
      int start = pos;
      long value = 0;
      boolean isOverflow = false;
      for (char c; pos < line.length() && (c = line.charAt(pos)) >= '0' && c <= '9'; pos++) {
        int digit = c - '0';
        // value * 10 + digit must stay below 2^64, compared as unsigned.
        if (Long.compareUnsigned(value, Long.divideUnsigned(-1L - digit, 10)) > 0) {
          isOverflow = true;
        }
        value = value * 10 + digit;
      }
      if (pos == start || isOverflow) {
        return fail();
      }
      return value;
    }
  }
}
