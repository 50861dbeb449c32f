package io.github.vertxbeanstalkd.tcp;

import io.github.vertxbeanstalkd.protocol.CommandParser;
import io.github.vertxbeanstalkd.protocol.Reply;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Checks that encoded bytes are exactly one reply of protocol.txt: a line of a known reply word and
 * its arguments, and for RESERVED, FOUND and OK the announced number of bytes and a CR LF.
 */
final class WireReply {
  private static final Set<String> WORDS =
      Arrays.stream(Reply.Word.values()).map(Enum::name).collect(Collectors.toUnmodifiableSet());
  private static final Pattern NUMBERED = Pattern.compile("(INSERTED|BURIED|WATCHING|KICKED) (0|[1-9][0-9]{0,19})");
  private static final Pattern USING = Pattern.compile("USING [A-Za-z0-9+/;.$_()][A-Za-z0-9+/;.$_()-]{0,"
      + (CommandParser.MAX_TUBE_NAME_BYTES - 1) + "}");
  private static final Pattern WITH_BODY = Pattern.compile("(RESERVED|FOUND) (0|[1-9][0-9]{0,19}) (0|[1-9][0-9]{0,9})");
  private static final Pattern DOCUMENT = Pattern.compile("OK (0|[1-9][0-9]{0,9})");

  private WireReply() {}

  /** Throws an AssertionError naming what is wrong unless {@code bytes} is one well-formed reply. */
  static void check(byte[] bytes) {
    int cr = -1;
    for (int i = 0; i + 1 < bytes.length; i++) {
      if (bytes[i] == '\r' && bytes[i + 1] == '\n') {
        cr = i;
        break;
      }
    }
    if (cr < 0) {
      throw new AssertionError("a reply without a CR LF: " + text(bytes));
    }
    String line = new String(bytes, 0, cr, StandardCharsets.ISO_8859_1);
    int rest = bytes.length - cr - 2;
    if (WORDS.contains(line) || NUMBERED.matcher(line).matches() || USING.matcher(line).matches()) {
      expect(rest == 0, "bytes after the reply line", bytes);
      return;
    }
    var withBody = WITH_BODY.matcher(line);
    var document = DOCUMENT.matcher(line);
    long announced;
    if (withBody.matches()) {
      announced = Long.parseLong(withBody.group(3));
    } else if (document.matches()) {
      announced = Long.parseLong(document.group(1));
    } else {
      throw new AssertionError("not a reply line of protocol.txt: " + text(bytes));
    }
    expect(rest == announced + 2, "a body whose length is not the announced " + announced, bytes);
    expect(bytes[bytes.length - 2] == '\r' && bytes[bytes.length - 1] == '\n', "a body not ended by CR LF", bytes);
  }

  private static void expect(boolean isTrue, String what, byte[] bytes) {
    if (!isTrue) {
      throw new AssertionError(what + ": " + text(bytes));
    }
  }

  private static String text(byte[] bytes) {
    String s = new String(bytes, 0, Math.min(bytes.length, 300), StandardCharsets.ISO_8859_1);
    return s.replace("\r", "\\r").replace("\n", "\\n");
  }
}
