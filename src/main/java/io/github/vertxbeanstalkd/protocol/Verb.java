package io.github.vertxbeanstalkd.protocol;

import io.github.vertxbeanstalkd.protocol.CommandParser.Arguments;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * The command words in the order beanstalkd 1.12 tries them, each with the reader of its
 * arguments: a line belongs to the first word it starts with (BEHAVIOURS.md 2).
 *
 * @see <a href="{@docRoot}/../spec/BEHAVIOURS.html">BEHAVIOURS.md</a>
 */
enum Verb {
  // BEHAVIOURS.md 2: a word that takes arguments includes its space, so "put" alone is
  // UNKNOWN_COMMAND; a word without arguments is matched as a prefix too, and no word here is a
  // prefix of a later one, so "reserve-job" without its space falls into "reserve".
  PUT("put ", Verb::put),
  PEEK("peek ", jobId(Command.Peek::new)),
  PEEK_READY("peek-ready", alone(Command.PeekState.READY)),
  PEEK_DELAYED("peek-delayed", alone(Command.PeekState.DELAYED)),
  PEEK_BURIED("peek-buried", alone(Command.PeekState.BURIED)),
  RESERVE_WITH_TIMEOUT("reserve-with-timeout ", Quirks::reserveWithTimeout),
  RESERVE_JOB("reserve-job ", jobId(Command.ReserveJob::new)),
  RESERVE("reserve", alone(Command.Reserve.FOREVER)),
  DELETE("delete ", jobId(Command.Delete::new)),
  RELEASE("release ", Verb::release),
  BURY("bury ", Verb::bury),
  KICK("kick ", Verb::kick),
  KICK_JOB("kick-job ", jobId(Command.KickJob::new)),
  TOUCH("touch ", jobId(Command.Touch::new)),
  STATS_JOB("stats-job ", jobId(Command.StatsJob::new)),
  STATS_TUBE("stats-tube ", tube(Command.StatsTube::new)),
  STATS("stats", alone(Command.Stats.INSTANCE)),
  USE("use ", tube(Command.Use::new)),
  WATCH("watch ", tube(Command.Watch::new)),
  IGNORE("ignore ", tube(Command.Ignore::new)),
  LIST_TUBES_WATCHED("list-tubes-watched", alone(Command.ListTubesWatched.INSTANCE)),
  LIST_TUBE_USED("list-tube-used", alone(Command.ListTubeUsed.INSTANCE)),
  LIST_TUBES("list-tubes", alone(Command.ListTubes.INSTANCE)),
  QUIT("quit", Quirks::quit),
  PAUSE_TUBE("pause-tube", Quirks::pauseTube);

  /** Reads what follows the word into a command, a put header or an error. */
  interface Reader {
    ParsedLine read(Arguments args);
  }

  private static final Verb[] IN_ORDER = values();

  private final String word;
  private final byte[] wordBytes;
  private final Reader reader;

  Verb(String word, Reader reader) {
    this.word = word;
    this.wordBytes = word.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    this.reader = reader;
  }

  /** The word as matched, with its trailing space if it takes arguments. */
  String word() {
    return word;
  }

  /** Bytes of {@link #word()}: where the arguments start. */
  int wordLength() {
    return wordBytes.length;
  }

  ParsedLine read(Arguments args) {
    return reader.read(args);
  }

  /** The first verb whose word starts the {@code length} bytes of {@code line}, or null. */
  static Verb matching(byte[] line, int length) {
    for (Verb verb : IN_ORDER) {
      if (verb.starts(line, length)) {
        return verb;
      }
    }
    return null;
  }

  private boolean starts(byte[] line, int length) {
    if (length < wordBytes.length) {
      return false;
    }
    for (int i = 0; i < wordBytes.length; i++) {
      if (line[i] != wordBytes[i]) {
        return false;
      }
    }
    return true;
  }

  /** BEHAVIOURS.md 2: a word without arguments must end the line; any byte after it is BAD_FORMAT. */
  private static Reader alone(Command command) {
    return a -> a.atEnd() ? command : Command.Invalid.BAD_FORMAT;
  }

  private static Reader jobId(LongFunction<Command> make) {
    return a -> {
      long id = a.u64();
      return a.isComplete() ? make.apply(id) : Command.Invalid.BAD_FORMAT;
    };
  }

  /** BEHAVIOURS.md 3: the name is everything after the word's one space. */
  private static Reader tube(Function<String, Command> make) {
    return a -> {
      String name = a.rest();
      return CommandParser.isValidTubeName(name) ? make.apply(name) : Command.Invalid.BAD_FORMAT;
    };
  }

  private static ParsedLine put(Arguments a) {
    long pri = a.u32();
    long delay = a.u32();
    long ttr = a.u32();
    long bytes = a.u32();
    // BEHAVIOURS.md 4: the size check comes before the trailing-text check, so an oversized put
    // with text after its size is still a header, and its body is swallowed.
    if (a.hasFailed() || (!a.atEnd() && bytes <= a.maxJobSizeBytes())) {
      return Command.Invalid.BAD_FORMAT;
    }
    return a.putHeader((int) pri, (int) delay, (int) ttr, bytes);
  }

  private static ParsedLine release(Arguments a) {
    long id = a.u64();
    long pri = a.u32();
    long delay = a.u32();
    return a.isComplete() ? new Command.Release(id, (int) pri, (int) delay) : Command.Invalid.BAD_FORMAT;
  }

  private static ParsedLine bury(Arguments a) {
    long id = a.u64();
    long pri = a.u32();
    return a.isComplete() ? new Command.Bury(id, (int) pri) : Command.Invalid.BAD_FORMAT;
  }

  /** BEHAVIOURS.md 3: strict, where 1.12 reads the count like strtoul (BAD_FORMAT is preferred). */
  private static ParsedLine kick(Arguments a) {
    long bound = a.u32();
    return a.isComplete() ? new Command.Kick(bound) : Command.Invalid.BAD_FORMAT;
  }
}
