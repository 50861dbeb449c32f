package io.github.vertxbeanstalkd.conformance;

import io.github.vertxbeanstalkd.ReplyText;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cuts a reply stream into units (one reply line, plus the body it announces) and normalises
 * the few values that legitimately differ between two servers.
 *
 * <p>Masked, in the {@code stats} document only (BEHAVIOURS.md 13 leaves them open; {@code id} is
 * the random server id there, whereas stats-job's {@code id} is compared exactly): pid, version,
 * rusage-utime, rusage-stime, uptime, id, hostname, os, platform. A masked value must still have
 * its documented form (digits, a quoted version, six-digit rusage fractions, 16 hex digits). Allowed to differ by one second
 * (BEHAVIOURS.md 13: "within one second of rounding"): stats-job's {@code age} and
 * {@code time-left}, stats-tube's {@code pause-time-left}. Everything else is compared byte for
 * byte, and the {@code OK <n>} length is recomputed from the normalised document.
 */
final class ReplyUnits {
  private static final Pattern OK = Pattern.compile("OK (\\d+)\r\n");
  /** The masked stats keys, each with the form its value must still have (BEHAVIOURS.md 11). */
  private static final Map<String, Pattern> STATS_MASKED = Map.of(
      "pid", Pattern.compile("\\d+"),
      "version", Pattern.compile("\"[^\"]*\""),
      "rusage-utime", Pattern.compile("\\d+\\.\\d{6}"),
      "rusage-stime", Pattern.compile("\\d+\\.\\d{6}"),
      "uptime", Pattern.compile("\\d+"),
      "id", Pattern.compile("[0-9a-f]{16}"),
      "hostname", Pattern.compile(".*"),
      "os", Pattern.compile(".*"),
      "platform", Pattern.compile(".*"));
  /**
   * Keys this server adds after 1.12's last stats key (README: Compatibility), each with its form;
   * dropped from our document before comparing, only when they come last.
   */
  private static final Map<String, Pattern> STATS_ADDED = Map.of(
      "current-job-store-bytes", Pattern.compile("\\d+"),
      "current-memory-bytes", Pattern.compile("\\d+"),
      "max-memory-bytes", Pattern.compile("\\d+"),
      "rejected-connections", Pattern.compile("\\d+"));
  private static final Set<String> STATS_JOB_ROUNDED = Set.of("age", "time-left");
  private static final Set<String> STATS_TUBE_ROUNDED = Set.of("pause-time-left");

  private ReplyUnits() {}

  /** Body bytes (including its CR LF) announced by this reply line, or -1 for none. */
  static long bodyLength(String headerLine) {
    if (!headerLine.endsWith("\r\n")) {
      return -1;
    }
    long body = ReplyText.announcedBodyBytes(headerLine.substring(0, headerLine.length() - 2));
    return body < 0 ? -1 : body + 2;
  }

  /** Splits recorded bytes into units; a trailing partial unit is kept as one unit. */
  static List<byte[]> split(byte[] data) {
    List<byte[]> units = new ArrayList<>();
    int pos = 0;
    while (pos < data.length) {
      int lineEnd = indexOfCrlf(data, pos);
      if (lineEnd < 0) {
        units.add(java.util.Arrays.copyOfRange(data, pos, data.length));
        break;
      }
      int end = lineEnd + 2;
      long body = bodyLength(text(data, pos, end));
      if (body >= 0) {
        end = (int) Math.min(data.length, end + body);
      }
      units.add(java.util.Arrays.copyOfRange(data, pos, end));
      pos = end;
    }
    return units;
  }

  static int indexOfCrlf(byte[] data, int from) {
    return indexOfCrlf(data, from, data.length);
  }

  static int indexOfCrlf(byte[] data, int from, int to) {
    for (int i = from; i + 1 < to; i++) {
      if (data[i] == '\r' && data[i + 1] == '\n') {
        return i;
      }
    }
    return -1;
  }

  /**
   * Returns {@code actual} with the tolerated values replaced by the expected ones (masked keys
   * become {@code *} in both; see {@link #normaliseExpected}), or unchanged if it is not a
   * well-formed document of the same kind.
   */
  static byte[] normaliseActual(byte[] expected, byte[] actual) {
    String[] want = document(expected);
    String[] got = document(actual);
    if (want == null || got == null) {
      return actual;
    }
    if (isStats(want)) {
      got = withoutAddedKeys(got);
    }
    Set<String> rounded = roundedKeys(want);
    for (int i = 0; i < got.length; i++) {
      String key = key(got[i]);
      if (isStats(want) && STATS_MASKED.containsKey(key)
          && STATS_MASKED.get(key).matcher(value(got[i])).matches()) {
        got[i] = key + ": *";
      } else if (rounded.contains(key) && i < want.length && key.equals(key(want[i]))
          && withinOne(value(want[i]), value(got[i]))) {
        got[i] = want[i];
      }
    }
    return ok(got);
  }

  private static String[] withoutAddedKeys(String[] lines) {
    int end = lines.length;
    while (end > 0 && STATS_ADDED.containsKey(key(lines[end - 1]))
        && STATS_ADDED.get(key(lines[end - 1])).matcher(value(lines[end - 1])).matches()) {
      end--;
    }
    return java.util.Arrays.copyOf(lines, end);
  }

  /** The expected unit with the masked stats values replaced by {@code *}. */
  static byte[] normaliseExpected(byte[] expected) {
    String[] want = document(expected);
    if (want == null || !isStats(want)) {
      return expected;
    }
    for (int i = 0; i < want.length; i++) {
      if (STATS_MASKED.containsKey(key(want[i]))) {
        want[i] = key(want[i]) + ": *";
      }
    }
    return ok(want);
  }

  /** For two documents, the lines that differ ("key: want -> got"); empty otherwise. */
  static String documentDifference(byte[] expected, byte[] actual) {
    String[] want = document(expected);
    String[] got = document(actual);
    if (want == null || got == null) {
      return "";
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < Math.max(want.length, got.length); i++) {
      String w = i < want.length ? want[i] : "(none)";
      String g = i < got.length ? got[i] : "(none)";
      if (!w.equals(g)) {
        sb.append("\n    beanstalkd `").append(w).append("`, ours `").append(g).append('`');
      }
    }
    return sb.length() == 0 ? "" : "\n  differing document lines:" + sb;
  }

  /** The YAML lines of a well-formed {@code OK <n>} unit, or null. */
  private static String[] document(byte[] unit) {
    int lineEnd = indexOfCrlf(unit, 0);
    if (lineEnd < 0) {
      return null;
    }
    Matcher m = OK.matcher(text(unit, 0, lineEnd + 2));
    if (!m.matches()) {
      return null;
    }
    int start = lineEnd + 2;
    long n = Long.parseLong(m.group(1));
    if (unit.length != start + n + 2 || unit[unit.length - 2] != '\r' || unit[unit.length - 1] != '\n') {
      return null;
    }
    String yaml = text(unit, start, unit.length - 2);
    if (!yaml.startsWith("---\n") || !yaml.endsWith("\n")) {
      return null;
    }
    return yaml.substring(0, yaml.length() - 1).split("\n", -1);
  }

  private static byte[] ok(String[] lines) {
    String yaml = String.join("\n", lines) + "\n";
    int n = yaml.getBytes(StandardCharsets.ISO_8859_1).length;
    return ("OK " + n + "\r\n" + yaml + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
  }

  private static boolean isStats(String[] lines) {
    return hasKey(lines, "hostname") && hasKey(lines, "current-connections");
  }

  private static Set<String> roundedKeys(String[] lines) {
    if (hasKey(lines, "time-left") && hasKey(lines, "state")) {
      return STATS_JOB_ROUNDED;
    }
    return hasKey(lines, "pause-time-left") ? STATS_TUBE_ROUNDED : Set.of();
  }

  private static boolean hasKey(String[] lines, String key) {
    for (String line : lines) {
      if (key.equals(key(line))) {
        return true;
      }
    }
    return false;
  }

  private static String key(String line) {
    int colon = line.indexOf(": ");
    return colon < 0 ? "" : line.substring(0, colon);
  }

  private static String value(String line) {
    int colon = line.indexOf(": ");
    return colon < 0 ? "" : line.substring(colon + 2);
  }

  private static boolean withinOne(String a, String b) {
    if (!a.matches("\\d{1,18}") || !b.matches("\\d{1,18}")) {
      return false;
    }
    return Math.abs(Long.parseLong(a) - Long.parseLong(b)) <= 1;
  }

  static String text(byte[] data, int from, int to) {
    return new String(data, from, to - from, StandardCharsets.ISO_8859_1);
  }
}
