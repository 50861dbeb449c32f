package io.github.vertxbeanstalkd.tcp;

import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.CommandParser;
import io.github.vertxbeanstalkd.protocol.ParsedLine;
import io.github.vertxbeanstalkd.protocol.PutHeader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The framing of BEHAVIOURS.md 1 and 4 written the slow, obvious way over a whole stream held in one
 * array: the oracle the fuzzed {@link CommandReader} is compared with, so a body is never read as
 * commands and a command never swallowed into a body, whatever the split.
 */
final class ReferenceFraming {
  private ReferenceFraming() {}

  /** The commands in {@code stream}, described by {@link #describe}, up to a quit or the last whole one. */
  static List<String> commands(byte[] stream, long maxJobSizeBytes) {
    CommandParser parser = new CommandParser(maxJobSizeBytes);
    List<String> out = new ArrayList<>();
    int at = 0;
    while (true) {
      int cr = crlf(stream, at);
      if (cr < 0) {
        return out;
      }
      int length = cr - at;
      int next = cr + 2;
      if (length > CommandParser.MAX_LINE_BYTES - 2) {
        out.add(describe(Command.Invalid.BAD_FORMAT));
        at = next;
        continue;
      }
      ParsedLine parsed = parser.parse(Arrays.copyOfRange(stream, at, cr), length);
      if (parsed instanceof PutHeader header) {
        long end = next + header.bytes() + 2;
        if (end > stream.length) {
          return out; // the body has not all arrived
        }
        if (header.bytes() > maxJobSizeBytes) {
          out.add(describe(new Command.JobTooBig()));
        } else {
          int bodyEnd = next + (int) header.bytes();
          boolean hasCrlf = stream[bodyEnd] == '\r' && stream[bodyEnd + 1] == '\n';
          out.add(describePut(header.priority(), header.delaySeconds(), header.ttrSeconds(),
              Arrays.copyOfRange(stream, next, bodyEnd), hasCrlf));
        }
        at = (int) end;
      } else if (parsed instanceof Command.Quit) {
        out.add("QUIT");
        return out;
      } else {
        out.add(describe((Command) parsed));
        at = next;
      }
    }
  }

  /** The first CR LF at or after {@code from}, or -1. */
  private static int crlf(byte[] a, int from) {
    for (int i = from; i + 1 < a.length; i++) {
      if (a[i] == '\r' && a[i + 1] == '\n') {
        return i;
      }
    }
    return -1;
  }

  /** A command as comparable text; a put's body is read at the moment this is called. */
  static String describe(Command c) {
    if (c instanceof Command.Put put) {
      return describePut(put.priority(), put.delaySeconds(), put.ttrSeconds(), put.body().toArray(), put.hasCrlf());
    }
    return c.toString();
  }

  private static String describePut(int priority, int delaySeconds, int ttrSeconds, byte[] body, boolean hasCrlf) {
    return "Put " + Integer.toUnsignedString(priority) + " " + delaySeconds + " " + ttrSeconds + " "
        + hasCrlf + " " + Arrays.toString(body);
  }
}
