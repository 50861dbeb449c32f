package io.github.vertxbeanstalkd;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The shapes of reply text the tests read: which replies carry a body, a stats document's keys, readable bytes. */
public final class ReplyText {
  /** protocol.txt: the replies that announce a body of {@code <bytes>} after their line. */
  private static final Pattern BODY_HEADER = Pattern.compile("(?:OK|FOUND \\d+|RESERVED \\d+) (\\d+)");

  private ReplyText() {}

  /** The {@code <bytes>} a reply line (without its CR LF) announces, or -1 when it announces none. */
  public static long announcedBodyBytes(String line) {
    Matcher header = BODY_HEADER.matcher(line);
    return header.matches() ? Long.parseLong(header.group(1)) : -1;
  }

  /**
   * A stats document's keys and values, in order.
   *
   * @throws IllegalArgumentException naming what is not YAML of that shape
   */
  static Map<String, String> yaml(String doc) {
    if (!doc.startsWith("---\n")) {
      throw new IllegalArgumentException("a YAML document starts with ---: " + doc);
    }
    Map<String, String> map = new LinkedHashMap<>();
    for (String row : doc.substring("---\n".length()).split("\n")) {
      int colon = row.indexOf(": ");
      if (colon < 0) {
        throw new IllegalArgumentException("not a key: value row: " + row + " in " + doc);
      }
      map.put(row.substring(0, colon), row.substring(colon + 2));
    }
    return map;
  }

  /** Bytes as readable text: printable ASCII as is, the rest as \xNN. */
  public static String escape(byte[] bytes) {
    StringBuilder b = new StringBuilder();
    for (byte x : bytes) {
      int c = x & 0xff;
      if (c == '\r') {
        b.append("\\r");
      } else if (c == '\n') {
        b.append("\\n");
      } else if (c >= 0x20 && c < 0x7f) {
        b.append((char) c);
      } else {
        b.append(String.format("\\x%02x", c));
      }
    }
    return b.toString();
  }
}
