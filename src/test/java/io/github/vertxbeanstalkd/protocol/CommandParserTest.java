package io.github.vertxbeanstalkd.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Table tests: one command line in, one command or error reply out (BEHAVIOURS.md 1 to 4). */
class CommandParserTest {
  private static final CommandParser parser = new CommandParser(65_535);
  private static final Command BAD = Command.Invalid.BAD_FORMAT;
  private static final Command UNKNOWN = Command.Invalid.UNKNOWN_COMMAND;
  private static final String NAME_200 = "a".repeat(200);
  private static final String NAME_201 = "a".repeat(201);

  static Stream<Arguments> validCommands() {
    return Stream.of(
        row("put 1 2 3 4", new PutHeader(1, 2, 3, 4)),
        row("put 0 0 0 0", new PutHeader(0, 0, 0, 0)),
        row("put 4294967295 4294967295 4294967295 65535", new PutHeader(-1, -1, -1, 65_535)),
        row("put 007 0 60 5", new PutHeader(7, 0, 60, 5)),
        row("put  1   2 3 4", new PutHeader(1, 2, 3, 4)),
        row("use foo", new Command.Use("foo")),
        row("use " + NAME_200, new Command.Use(NAME_200)),
        row("use A-Za-z0-9+/;.$_()", new Command.Use("A-Za-z0-9+/;.$_()")),
        row("watch bar", new Command.Watch("bar")),
        row("ignore bar", new Command.Ignore("bar")),
        row("reserve", Command.Reserve.FOREVER),
        row("reserve-with-timeout 0", new Command.Reserve(0)),
        row("reserve-with-timeout 2147483647", new Command.Reserve(2_147_483_647L)),
        row("reserve-with-timeout  5", new Command.Reserve(5)),
        row("reserve-job 18446744073709551615", new Command.ReserveJob(-1)),
        row("delete 1", new Command.Delete(1)),
        row("delete 0001", new Command.Delete(1)),
        row("release 5 10 20", new Command.Release(5, 10, 20)),
        row("bury 5 10", new Command.Bury(5, 10)),
        row("touch 5", new Command.Touch(5)),
        row("peek 5", new Command.Peek(5)),
        row("peek-ready", Command.PeekState.READY),
        row("peek-delayed", Command.PeekState.DELAYED),
        row("peek-buried", Command.PeekState.BURIED),
        row("kick 10", new Command.Kick(10)),
        row("kick 0", new Command.Kick(0)),
        row("kick-job 3", new Command.KickJob(3)),
        row("stats-job 3", new Command.StatsJob(3)),
        row("stats-tube default", new Command.StatsTube("default")),
        row("stats", Command.Stats.INSTANCE),
        row("list-tubes", Command.ListTubes.INSTANCE),
        row("list-tube-used", Command.ListTubeUsed.INSTANCE),
        row("list-tubes-watched", Command.ListTubesWatched.INSTANCE),
        row("pause-tube foo 10", new Command.PauseTube("foo", 10)),
        row("pause-tube foo 0", new Command.PauseTube("foo", 0)),
        // BEHAVIOURS.md 2 (quirks kept): no space needed, extra spaces skipped.
        row("pause-tubefoo 5", new Command.PauseTube("foo", 5)),
        row("pause-tube   foo   5", new Command.PauseTube("foo", 5)),
        row("quit", Command.Quit.INSTANCE),
        row("quitting now", Command.Quit.INSTANCE));
  }

  static Stream<Arguments> rejectedLines() {
    Command pauseBadFormat = new Command.Invalid(Reply.Word.BAD_FORMAT, Counter.PAUSE_TUBE);
    return Stream.of(
        // BEHAVIOURS.md 1
        row("", UNKNOWN),
        row("stats\0", BAD),
        row("use a\0b", BAD),
        row("x".repeat(223), BAD),
        row("STATS", UNKNOWN),
        row("list-tube-used\n", BAD),
        // BEHAVIOURS.md 2: words that take arguments need their space
        row("put", UNKNOWN), row("use", UNKNOWN), row("watch", UNKNOWN), row("ignore", UNKNOWN),
        row("delete", UNKNOWN), row("release", UNKNOWN), row("bury", UNKNOWN), row("touch", UNKNOWN),
        row("peek", UNKNOWN), row("kick", UNKNOWN), row("kick-job", UNKNOWN),
        // ... unless another word is a prefix of them
        row("reserve-job", BAD), row("reserve-with-timeout", BAD), row("stats-job", BAD),
        row("stats-tube", BAD), row("pause-tube", BAD),
        row("statsx", BAD), row("reservex", BAD), row("peek-readyx", BAD), row("list-tubesx", BAD),
        row("stats ", BAD), row("reserve ", BAD), row("list-tubes-watched ", BAD),
        row("frobnicate", UNKNOWN),
        // BEHAVIOURS.md 3: numbers
        row("delete -1", BAD), row("delete +1", BAD), row("delete 0x1", BAD), row("delete 1.0", BAD),
        row("delete 1a", BAD), row("delete 1 ", BAD), row("delete 1 2", BAD), row("delete\t1", UNKNOWN),
        row("delete  ", BAD), row("delete 18446744073709551616", BAD),
        row("release 1 4294967296 0", BAD), row("release 1 18446744073709551615 0", BAD),
        row("put 99999999999999999999 0 0 1", BAD), row("delete 99999999999999999999", BAD), row("release 1 2", BAD), row("release 1 2 3 ", BAD),
        row("bury 1", BAD), row("bury 1 2 3", BAD),
        row("put 1 2 3", BAD), row("put 1 2 3 4 ", BAD), row("put 1 2 3 4 5", BAD),
        row("put 4294967296 0 0 1", BAD), row("put 1 2\t3 4", BAD), row("put -1 0 0 1", BAD),
        // reserve-with-timeout reads like strtol: only a value outside a 64-bit long is refused
        row("reserve-with-timeout 9223372036854775808", BAD),
        row("reserve-with-timeout -9223372036854775809", BAD),
        row("reserve-with-timeout 99999999999999999999", BAD),
        row("reserve-with-timeout\t1", BAD), row("reserve-with-timeoutx", BAD),
        // strict where 1.12 is loose (BEHAVIOURS.md 3 prefers BAD_FORMAT)
        row("kick x", BAD), row("kick -1", BAD), row("kick 4294967296", BAD), row("kick 1x", BAD),
        // BEHAVIOURS.md 3: tube names
        row("use " + NAME_201, BAD), row("use -foo", BAD), row("use  foo", BAD), row("use foo ", BAD),
        row("use a*b", BAD), row("use a#b", BAD), row("use a:b", BAD), row("use a,b", BAD),
        row("use a@b", BAD), row("use a~b", BAD), row("use a%b", BAD), row("use a&b", BAD),
        row("use a=b", BAD), row("use a!b", BAD), row("use a b", BAD), row("use \u00e9", BAD),
        row("watch -x", BAD), row("ignore a b", BAD), row("stats-tube a b", BAD),
        // 1.12 counts cmd-pause-tube only when the name bytes and the delay parse
        row("pause-tube -abc 5", pauseBadFormat), row("pause-tube foo", BAD),
        row("pause-tube foo x", BAD), row("pause-tube foo 5 ", BAD), row("pause-tube a*b 5", BAD),
        row("pause-tube " + NAME_201 + " 5", pauseBadFormat));
  }

  /** One group of rows per entry of {@link Quirks} and per rule of the {@link Verb} table. */
  static Stream<Arguments> quirks() {
    Command pauseBadFormat = new Command.Invalid(Reply.Word.BAD_FORMAT, Counter.PAUSE_TUBE);
    return Stream.of(
        // BEHAVIOURS.md 1: the length and NUL checks come before any word is matched
        row("quit\0", BAD), row("quit" + " ".repeat(219), BAD), row("quit" + " ".repeat(218), Command.Quit.INSTANCE),
        // BEHAVIOURS.md 2: a word without arguments is a prefix too, and must then end the line
        row("peek-ready 1", BAD), row("peek-delayedx", BAD), row("peek-buried ", BAD),
        row("list-tube-usedx", BAD), row("list-tubes-watchedx", BAD), row("stats-jobx", BAD),
        row("reserve-jobx 1", BAD), row("reserve-with-timeoutx 1", BAD), row("stats-tubex", BAD),
        // ... while a word with arguments needs its space, and nothing else shares its start
        row("peek-x", UNKNOWN), row("kick-jobx", UNKNOWN), row("list-tube", UNKNOWN),
        row("puts 1 2 3 4", UNKNOWN), row("quiet", UNKNOWN),
        // BEHAVIOURS.md 2: any line starting with "quit"
        row("quitx", Command.Quit.INSTANCE), row("quit 5", Command.Quit.INSTANCE),
        row("quit\r", Command.Quit.INSTANCE),
        // BEHAVIOURS.md 2: pause-tube skips spaces (not tabs) before its name, none required
        row("pause-tube\tfoo 5", BAD), row("pause-tubex", BAD), row("pause-tube 5", BAD),
        // BEHAVIOURS.md 10: counted only once the name bytes and the delay parse
        row("pause-tube" + NAME_201 + " 5", pauseBadFormat), row("pause-tube -abc 4294967296", BAD),
        row("pause-tube -abc 5x", BAD),
        // BEHAVIOURS.md 3: spaces before a number are skipped, a tab is never a separator
        row("delete  1", new Command.Delete(1)), row("release 1  2   3", new Command.Release(1, 2, 3)),
        row("bury  1  2", new Command.Bury(1, 2)), row("kick   7", new Command.Kick(7)),
        row("touch \t1", BAD), row("bury 1\t2", BAD),
        // BEHAVIOURS.md 4: an oversized put wins over its trailing text, not over a bad number
        row("put 0 0 60 70000junk", new PutHeader(0, 0, 60, 70_000)),
        row("put 0 0 60 70000 ", new PutHeader(0, 0, 60, 70_000)),
        row("put 0 0 x 70000", BAD), row("put 0 0 60 4294967296 junk", BAD));
  }

  @ParameterizedTest(name = "[{index}] '{0}'")
  @MethodSource("quirks")
  void keepsTheReferenceQuirk(String line, ParsedLine expected) {
    assertEquals(expected, parser.parse(line));
  }

  @Test
  void noWordOfTheTableIsShadowedByAnEarlierOne() {
    // BEHAVIOURS.md 2: 1.12 tries "reserve-job " before "reserve" and "stats-tube " before
    // "stats"; the table keeps that order, so each word is reached by its own lines.
    Verb[] verbs = Verb.values();
    for (int later = 0; later < verbs.length; later++) {
      for (int earlier = 0; earlier < later; earlier++) {
        assertEquals(false, verbs[later].word().startsWith(verbs[earlier].word()),
            verbs[earlier] + " hides " + verbs[later]);
      }
      byte[] word = verbs[later].word().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      assertEquals(verbs[later], Verb.matching(word, word.length));
    }
  }

  /**
   * BEHAVIOURS.md 3 (required): every row was measured on beanstalkd 1.12; {@code -1} is "no
   * timeout", which 1.12 still counts as {@code reserve-with-timeout}.
   */
  static Stream<Arguments> reserveWithTimeoutReadLikeStrtol() {
    return Stream.of(
        row("-1", -1), row("+1", 1), row("1x", 1), row("", 0), row(" ", 0), row("4294967296", 0),
        row("-0", 0), row(" 1", 1), row("  -1", -1), row("\t1", 1), row("\u000b1", 1), row("\f1", 1),
        row("\n1", 1), row("2147483647", 2_147_483_647L), row("2147483648", -1),
        row("4294967295", -1), row("4294967297", 1), row("-2147483648", -1),
        row("-2147483649", 2_147_483_647L), row("-4294967295", 1), row("-4294967296", 0),
        row("9223372036854775807", -1), row("-9223372036854775808", 0), row("0x10", 0),
        row("1 2", 1), row("1 ", 1), row("- 1", 0), row("+-1", 0), row("--1", 0), row("abc", 0),
        row("1.9", 1), row("01", 1), row("-01x", -1), row("0000000000000000000000000000007", 7),
        // Not measurable on 1.12, whose line reader stops at the first CR; strtol skips it.
        row("\r1", 1));
  }

  @ParameterizedTest(name = "[{index}] 'reserve-with-timeout {0}' waits {1} s")
  @MethodSource("reserveWithTimeoutReadLikeStrtol")
  void readsReserveWithTimeoutLikeStrtolIntoAnInt(String argument, long seconds) {
    assertEquals(new Command.Reserve(seconds, true), parser.parse("reserve-with-timeout " + argument));
  }

  @ParameterizedTest(name = "[{index}] '{0}'")
  @MethodSource("validCommands")
  void parsesValidLine(String line, ParsedLine expected) {
    assertEquals(expected, parser.parse(line));
  }

  @ParameterizedTest(name = "[{index}] '{0}'")
  @MethodSource("rejectedLines")
  void rejectsInvalidLine(String line, ParsedLine expected) {
    assertEquals(expected, parser.parse(line));
  }

  @Test
  void longestLineIs222BytesBeforeTheCrLf() {
    String line = "use " + "a".repeat(200) + " ".repeat(18);
    assertEquals(222, line.length());
    assertEquals(BAD, parser.parse(line)); // rejected for its trailing spaces, not its length
    assertEquals(new Command.Kick(5), parser.parse("kick " + "0".repeat(216) + "5"));
    assertEquals(BAD, parser.parse("kick " + "0".repeat(217) + "5"));
  }

  @Test
  void putLargerThanMaxJobSizeIsStillAHeaderEvenWithTrailingText() {
    // BEHAVIOURS.md 4: the size check runs before the trailing-text check.
    assertEquals(new PutHeader(0, 0, 60, 70_000), parser.parse("put 0 0 60 70000 junk"));
    assertEquals(BAD, parser.parse("put 0 0 60 65535 junk"));
    assertEquals(new PutHeader(0, 0, 60, 65_535), parser.parse("put 0 0 60 65535"));
  }

  @Test
  void bytesAreReadAsLatin1() {
    byte[] line = {'u', 's', 'e', ' ', (byte) 0xC3, (byte) 0xA9};
    assertEquals(BAD, parser.parse(line, line.length));
  }

  private static Arguments row(String line, ParsedLine expected) {
    return Arguments.of(line, expected);
  }

  private static Arguments row(String argument, long seconds) {
    return Arguments.of(argument, seconds);
  }
}
