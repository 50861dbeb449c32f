package io.github.vertxbeanstalkd.conformance;

import java.io.ByteArrayOutputStream;

/** The escaped byte notation of the case files (see {@link CaseFile}), both ways. */
final class PayloadText {
  private PayloadText() {}

  static byte[] unescape(String text) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c != '\\') {
        if (c < 0x20 || c > 0x7e) {
          throw new IllegalArgumentException("raw byte " + (int) c + " must be escaped");
        }
        out.write(c);
        i++;
        continue;
      }
      if (i + 1 >= text.length()) {
        throw new IllegalArgumentException("dangling backslash");
      }
      char e = text.charAt(i + 1);
      switch (e) {
        case 'r' -> out.write('\r');
        case 'n' -> out.write('\n');
        case 't' -> out.write('\t');
        case '0' -> out.write(0);
        case 's' -> out.write(' ');
        case '\\' -> out.write('\\');
        case 'x' -> {
          out.write(Integer.parseInt(text.substring(i + 2, i + 4), 16));
          i += 2;
        }
        case '[' -> {
          int end = text.indexOf(']', i + 2);
          macro(text.substring(i + 2, end), out);
          i = end - 1;
        }
        default -> throw new IllegalArgumentException("unknown escape \\" + e);
      }
      i += 2;
    }
    return out.toByteArray();
  }

  /** {@code N*unit} (N copies of the escaped unit) or {@code HH..HH} (a range of byte values). */
  private static void macro(String body, ByteArrayOutputStream out) {
    if (body.matches("[0-9A-Fa-f]{2}\\.\\.[0-9A-Fa-f]{2}")) {
      int from = Integer.parseInt(body.substring(0, 2), 16);
      int to = Integer.parseInt(body.substring(4, 6), 16);
      for (int b = from; b <= to; b++) {
        out.write(b);
      }
      return;
    }
    int star = body.indexOf('*');
    if (star < 0 || body.contains("\\[")) {
      throw new IllegalArgumentException("bad repeat \\[" + body + "] (repeats do not nest)");
    }
    byte[] unit = unescape(body.substring(star + 1));
    int count = Integer.parseInt(body.substring(0, star));
    for (int k = 0; k < count; k++) {
      out.write(unit, 0, unit.length);
    }
  }

  /** Readable form for failure messages: escapes as above, long runs folded. */
  static String escape(byte[] data, int from, int to) {
    StringBuilder sb = new StringBuilder();
    int i = from;
    while (i < to) {
      int j = i;
      while (j < to && data[j] == data[i]) {
        j++;
      }
      if (j - i >= 8) {
        sb.append("\\[").append(j - i).append('*').append(escapeByte(data[i])).append(']');
        i = j;
        continue;
      }
      sb.append(escapeByte(data[i]));
      i++;
    }
    return sb.toString();
  }

  static String escape(byte[] data) {
    return escape(data, 0, data.length);
  }

  private static String escapeByte(byte value) {
    int b = value & 0xff;
    return switch (b) {
      case '\r' -> "\\r";
      case '\n' -> "\\n";
      case '\t' -> "\\t";
      case '\\' -> "\\\\";
      case ']' -> "\\x5d";
      default -> b >= 0x20 && b <= 0x7e ? String.valueOf((char) b) : String.format("\\x%02x", b);
    };
  }
}
