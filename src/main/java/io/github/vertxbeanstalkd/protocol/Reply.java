package io.github.vertxbeanstalkd.protocol;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** A protocol reply as an immutable value; {@link ReplyEncoder} turns it into bytes. */
public sealed interface Reply {

  /** A reply that is one fixed word, such as {@code DELETED} or {@code NOT_FOUND}. */
  enum Word implements Reply {
    OUT_OF_MEMORY, INTERNAL_ERROR, BAD_FORMAT, UNKNOWN_COMMAND,
    EXPECTED_CRLF, JOB_TOO_BIG, DRAINING,
    DELETED, RELEASED, BURIED, TOUCHED, KICKED, PAUSED,
    NOT_FOUND, NOT_IGNORED, TIMED_OUT, DEADLINE_SOON;

    private final byte[] line = (name() + "\r\n").getBytes(StandardCharsets.US_ASCII);

    /** The reply line, CR LF included. */
    public byte[] line() {
      return line;
    }
  }

  /** {@code INSERTED <id>}, {@code BURIED <id>}, {@code WATCHING <count>}, {@code KICKED <count>}. */
  record Number(String word, long value) implements Reply {
    public static Number inserted(long id) {
      return new Number("INSERTED", id);
    }

    public static Number buried(long id) {
      return new Number("BURIED", id);
    }

    public static Number watching(long count) {
      return new Number("WATCHING", count);
    }

    public static Number kicked(long count) {
      return new Number("KICKED", count);
    }
  }

  /** {@code USING <tube>}. */
  record Using(String tube) implements Reply {}

  /**
   * {@code RESERVED <id> <bytes>} or {@code FOUND <id> <bytes>}, then the body. The job's tube is
   * not on the wire; it travels along for fronts that show it (the event bus).
   */
  record JobBody(String word, long id, byte[] body, String tube) implements Reply {
    public static JobBody reserved(long id, byte[] body, String tube) {
      return new JobBody("RESERVED", id, body, tube);
    }

    public static JobBody found(long id, byte[] body, String tube) {
      return new JobBody("FOUND", id, body, tube);
    }
  }

  /** {@code OK <bytes>} followed by a stats document, written as YAML. */
  record Stats(StatsDocument document) implements Reply {}

  /**
   * A reply another node already encoded with {@link ReplyEncoder}, CR LF and any body included: a
   * standby writes its primary's replies as they are, so they are the primary's to the byte.
   */
  record Encoded(byte[] bytes) implements Reply {
    /** Whether the reply's line starts with {@code word}, such as {@code "WATCHING "}. */
    public boolean startsWith(String word) {
      if (bytes.length < word.length()) {
        return false;
      }
      for (int i = 0; i < word.length(); i++) {
        if (bytes[i] != word.charAt(i)) {
          return false;
        }
      }
      return true;
    }
  }

  /** {@code OK <bytes>} followed by a YAML list of tube names (list-tubes, list-tubes-watched). */
  record TubeNames(List<String> names) implements Reply {
    /** The YAML document's bytes: {@code ---}, then {@code - name} per tube. */
    public byte[] yaml() {
      StringBuilder text = new StringBuilder(16 + names.size() * 16).append("---\n");
      for (String name : names) {
        text.append("- ").append(name).append('\n');
      }
      return text.toString().getBytes(StandardCharsets.ISO_8859_1);
    }
  }
}
