package io.github.vertxbeanstalkd.conformance;

import io.github.vertxbeanstalkd.conformance.ConformanceCase.Expected;
import io.github.vertxbeanstalkd.conformance.ConformanceCase.Kind;
import io.github.vertxbeanstalkd.conformance.ConformanceCase.Step;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Loads the conformance cases of {@code src/test/resources/conformance/*.cases}.
 *
 * <h2>README: the case format</h2>
 *
 * <p>A case file is ASCII text, one item per line. Blank lines and lines starting with {@code #}
 * are comments. Every case starts a fresh server (fresh ids, counters and tubes).
 *
 * <pre>
 * === case-name                  starts a case; names are unique across all files ([a-z0-9._-])
 * option max-job-size N          (before the first step) beanstalkd -z N / ServerConfig.withMaxJobSize
 * option retry-while TEXT        recorder only: record again while the replies contain TEXT; for
 *                                1.12's lost TTR expiry (BEHAVIOURS.md 6, a reference bug)
 * option quirk-not-followed WHY  replay skips the case: it records a BEHAVIOURS.md *Quirk* that
 *                                this server deliberately does not copy; WHY says what it does
 * A&gt; bytes                       send these bytes on connection A (one write); A..Z are
 *                                connections, opened on first use
 * A open                         connect A now without sending anything
 * A close                        the client closes A
 * A shutdown                     the client half-closes A (shuts down its sending side)
 * sleep 1.2                      wait until 1.2 s after the previous step began
 * drain                          drain mode: SIGUSR1 to beanstalkd, BeanstalkServer.drain for ours
 * A&lt; bytes                       RECORDED: bytes A received after the step above; consecutive
 *                                A&lt; lines concatenate
 * A&lt; (closed)                    RECORDED: then the server closed A (end of stream or reset)
 * </pre>
 *
 * <p>Payload escapes: {@code \r \n \t \0 \s}(space) {@code \\ \xHH}; {@code \[N*unit]} is N
 * copies of the escaped unit (as in {@code \[300*\x00]} or {@code \[1100*stats\r\n]}; repeats do
 * not nest, and a {@code ]} inside is written {@code \x5d}); {@code \[HH..HH]} is every byte value
 * from HH to HH. Any other byte outside printable ASCII must be escaped, and a
 * payload must not end in a raw space (editors strip it): write {@code \s}.
 *
 * <p>The {@code X<} lines are written by
 * {@code python3 src/test/conformance-recorder/record.py}, which runs each case against a fresh
 * {@code beanstalkd -l 127.0.0.1 -p PORT} 1.12 and attributes to each step what arrived before
 * the connections went quiet (0.2 s). Write the steps by hand, then record; never edit the
 * recorded lines by hand.
 *
 * <p>Replay ({@link ConformanceTest}): after each step the test reads exactly the recorded
 * replies from each connection (framed as reply lines plus the bodies that {@code OK},
 * {@code FOUND} and {@code RESERVED} announce) and requires every other connection to have sent
 * nothing; a step with no recorded reply waits briefly for stray bytes. The values that
 * legitimately differ between two servers are normalised ({@link ReplyUnits}).
 */
final class CaseFile {
  private static final Pattern CASE = Pattern.compile("=== ([a-z0-9][a-z0-9._-]*)");
  private static final Pattern OPTION = Pattern.compile("option max-job-size (\\d+)");
  private static final Pattern RECORDER_OPTION = Pattern.compile("option retry-while .+");
  private static final Pattern QUIRK_OPTION = Pattern.compile("option quirk-not-followed (.+)");
  private static final Pattern SEND = Pattern.compile("([A-Z])> (.*)");
  private static final Pattern EXPECT = Pattern.compile("([A-Z])< (.*)");
  private static final Pattern CONN = Pattern.compile("([A-Z]) (open|close|shutdown)");
  private static final Pattern SLEEP = Pattern.compile("sleep (\\d+(?:\\.\\d+)?)");
  static final String CLOSED = "(closed)";

  private CaseFile() {}

  static List<ConformanceCase> load(Path path) throws IOException {
    String file = path.getFileName().toString();
    List<String> lines = Files.readAllLines(path, StandardCharsets.US_ASCII);
    List<ConformanceCase> cases = new ArrayList<>();
    Builder current = null;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      String where = file + ":" + (i + 1);
      String stripped = line.strip();
      if (stripped.isEmpty() || stripped.startsWith("#")) {
        continue;
      }
      Matcher m;
      if ((m = CASE.matcher(line)).matches()) {
        if (current != null) {
          cases.add(current.build());
        }
        current = new Builder(m.group(1), file, i + 1);
        continue;
      }
      if (current == null) {
        throw new IllegalArgumentException(where + ": step before the first === case");
      }
      try {
        current.add(line, i + 1);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
      }
    }
    if (current != null) {
      cases.add(current.build());
    }
    return cases;
  }

  /** Collects one case's steps; expectations attach to the step before them. */
  private static final class Builder {
    private final String name;
    private final String file;
    private final int line;
    private Integer maxJobSizeBytes;
    private String quirkNotFollowed;
    private final List<Step> steps = new ArrayList<>();
    private final Map<Character, ByteArrayOutputStream> pendingBytes = new LinkedHashMap<>();
    private final Map<Character, Boolean> pendingClosed = new LinkedHashMap<>();
    private Step last;

    Builder(String name, String file, int line) {
      this.name = name;
      this.file = file;
      this.line = line;
    }

    void add(String text, int lineNumber) {
      Matcher m;
      if ((m = EXPECT.matcher(text)).matches()) {
        if (last == null) {
          throw new IllegalArgumentException("recorded reply before any step");
        }
        char conn = m.group(1).charAt(0);
        if (Boolean.TRUE.equals(pendingClosed.get(conn))) {
          throw new IllegalArgumentException("reply after (closed)");
        }
        ByteArrayOutputStream bytes = pendingBytes.computeIfAbsent(conn, c -> new ByteArrayOutputStream());
        if (m.group(2).equals(CLOSED)) {
          pendingClosed.put(conn, true);
        } else {
          bytes.writeBytes(PayloadText.unescape(m.group(2)));
        }
        return;
      }
      flush();
      if (RECORDER_OPTION.matcher(text).matches()) {
        return;
      }
      if ((m = QUIRK_OPTION.matcher(text)).matches()) {
        quirkNotFollowed = m.group(1);
        return;
      }
      if ((m = OPTION.matcher(text)).matches()) {
        if (!steps.isEmpty() || last != null) {
          throw new IllegalArgumentException("option after the first step");
        }
        maxJobSizeBytes = Integer.parseInt(m.group(1));
      } else if ((m = SEND.matcher(text)).matches()) {
        last = new Step(lineNumber, text, Kind.SEND, m.group(1).charAt(0), PayloadText.unescape(m.group(2)), 0,
            Map.of());
      } else if ((m = CONN.matcher(text)).matches()) {
        Kind kind = Kind.valueOf(m.group(2).toUpperCase(java.util.Locale.ROOT));
        last = new Step(lineNumber, text, kind, m.group(1).charAt(0), null, 0, Map.of());
      } else if ((m = SLEEP.matcher(text)).matches()) {
        last = new Step(lineNumber, text, Kind.SLEEP, ' ', null, Double.parseDouble(m.group(1)), Map.of());
      } else if (text.equals("drain")) {
        last = new Step(lineNumber, text, Kind.DRAIN, ' ', null, 0, Map.of());
      } else {
        throw new IllegalArgumentException("cannot parse '" + text + "'");
      }
    }

    /** Attaches the collected replies to the last step and stores it. */
    private void flush() {
      if (last == null) {
        return;
      }
      Map<Character, Expected> expected = new LinkedHashMap<>();
      pendingBytes.forEach((conn, bytes) ->
          expected.put(conn, new Expected(bytes.toByteArray(), pendingClosed.getOrDefault(conn, false))));
      steps.add(new Step(last.line(), last.text(), last.kind(), last.conn(), last.payload(),
          last.sleepSeconds(), Map.copyOf(expected)));
      pendingBytes.clear();
      pendingClosed.clear();
      last = null;
    }

    ConformanceCase build() {
      flush();
      return new ConformanceCase(name, file, line, maxJobSizeBytes, quirkNotFollowed, List.copyOf(steps));
    }
  }
}
