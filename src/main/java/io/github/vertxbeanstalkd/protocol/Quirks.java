package io.github.vertxbeanstalkd.protocol;

import io.github.vertxbeanstalkd.protocol.CommandParser.Arguments;

/**
 * The argument readers where beanstalkd 1.12 departs from the plain "word, space, arguments" rules.
 *
 * @see <a href="{@docRoot}/../spec/BEHAVIOURS.html">BEHAVIOURS.md</a>
 */
final class Quirks {
  /** BEHAVIOURS.md 10: counted as {@code cmd-pause-tube} although the reply is BAD_FORMAT. */
  private static final Command.Invalid COUNTED_PAUSE_TUBE_BAD_FORMAT =
      new Command.Invalid(Reply.Word.BAD_FORMAT, Counter.PAUSE_TUBE);

  private Quirks() {}

  /** BEHAVIOURS.md 2: any line that starts with "quit" closes the connection, "quitting now" included. */
  static ParsedLine quit(Arguments ignored) {
    return Command.Quit.INSTANCE;
  }

  /**
   * BEHAVIOURS.md 2 and 10: "pause-tube" is matched without a space, spaces before the name are
   * skipped, none required; a line whose name bytes and delay parse but whose name breaks a rule
   * (a leading hyphen, 201 bytes) is counted before it is refused.
   */
  static ParsedLine pauseTube(Arguments a) {
    a.skipWhile(c -> c == ' ');
    String name = a.takeWhile(CommandParser::isNameChar);
    long seconds = a.u32();
    if (!a.isComplete()) {
      return Command.Invalid.BAD_FORMAT;
    }
    if (!CommandParser.isValidTubeName(name)) {
      return COUNTED_PAUSE_TUBE_BAD_FORMAT;
    }
    return new Command.PauseTube(name, seconds);
  }

  /**
   * BEHAVIOURS.md 3 (required: JavaBeanstalkClient sends {@code -1} to wait forever): 1.12 reads
   * the timeout with {@code strtol(s, &end, 10)} into a C {@code int} and ignores {@code end}. So
   * C white space and a sign may come first, anything may follow the digits, no digits at all read
   * as 0, only a value outside a 64-bit long is BAD_FORMAT, and the long keeps its low 32 bits:
   * 4294967296 is 0, 4294967297 is 1, and 2147483648 or -1 is negative, which waits like
   * {@code reserve} (but is still counted as {@code reserve-with-timeout}).
   */
  static ParsedLine reserveWithTimeout(Arguments a) {
    a.skipWhile(Quirks::isCSpace);
    boolean isNegative = a.take('-');
    if (!isNegative) {
      a.take('+');
    }
    // Accumulated as a negative number, so that -9223372036854775808 fits as strtol's does.
    long negated = 0;
    for (int digit; (digit = a.digit()) >= 0; ) {
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
  private static boolean isCSpace(int c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\u000b' || c == '\f' || c == '\r';
  }
}
