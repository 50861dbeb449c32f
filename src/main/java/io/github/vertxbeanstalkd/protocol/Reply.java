package io.github.vertxbeanstalkd.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/** A protocol reply as an immutable value; {@link ReplyEncoder} turns it into bytes. */
public sealed interface Reply {

  /**
   * The front is done with this reply: its bytes are written (or copied). What it borrowed, a
   * pooled body, goes back for reuse, so nothing of it may be read afterwards. Call at most once;
   * a reply never released is left to the collector.
   */
  default void release() {}

  /**
   * The heap this reply holds on its way from the engine to a front beyond a plain reply's few
   * bytes: a body's copy, a document's objects. The engine makes no more such replies for a front
   * that has not yet received enough of them ({@code engine.FrontFlow}).
   */
  default long transitBytes() {
    return 0;
  }

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

    /** Not a protocol reply: the jobs a {@link Command.Flush} deleted. */
    public static Number flushed(long count) {
      return new Number("FLUSHED", count);
    }
  }

  /** {@code USING <tube>}. */
  record Using(String tube) implements Reply {}

  /**
   * {@code RESERVED <id> <bytes>} or {@code FOUND <id> <bytes>}, then the body. The job's tube is
   * not on the wire; it travels along for fronts that show it (the event bus).
   *
   * <p>The engine takes these from its {@link JobBodyPool}, so a reserve allocates nothing once the
   * pool is warm: the body is copied out of the job store into an array the reply borrows. The
   * reply is immutable from when the engine hands it on until a front {@link #release()}s it after
   * writing its bytes; whoever does not release it leaves it to the collector.
   */
  final class JobBody implements Reply {
    /** The pool it goes back to; null for a reply made with {@link #reserved} or {@link #found}. */
    private final JobBodyPool pool;
    private String word;
    private long id;
    private String tube;
    /** The body's bytes from 0 to {@link #length}; a pooled array may be longer. */
    private byte[] bytes;
    private int length;
    private boolean isReleased;
    /** The pool's link (its free list, or what was given back). */
    JobBody next;

    private JobBody(String word, long id, byte[] body, String tube) {
      this.pool = null;
      this.word = word;
      this.id = id;
      this.bytes = body;
      this.length = body.length;
      this.tube = tube;
    }

    JobBody(JobBodyPool pool) {
      this.pool = pool;
    }

    /** A reply of {@code body} itself, not a copy, and not pooled. */
    public static JobBody reserved(long id, byte[] body, String tube) {
      return new JobBody("RESERVED", id, body, tube);
    }

    public static JobBody found(long id, byte[] body, String tube) {
      return new JobBody("FOUND", id, body, tube);
    }

    /** Readies a pooled reply for a body of {@code length} bytes (the array grows when too short). */
    void fill(String word, long id, String tube, int length, int minArrayBytes) {
      this.word = word;
      this.id = id;
      this.tube = tube;
      this.length = length;
      if (bytes == null || bytes.length < length) {
        bytes = new byte[arrayBytesFor(length, minArrayBytes)];
      }
    }

    /** Powers of two up to 64 KiB, so that bodies of about the same size share arrays; larger ones exact. */
    private static int arrayBytesFor(int length, int minArrayBytes) {
      if (length > 65536) {
        return length;
      }
      return Math.max(minArrayBytes, Integer.highestOneBit(Math.max(1, length - 1)) << 1);
    }

    void reuse() {
      isReleased = false;
    }

    int arrayBytes() {
      return bytes == null ? 0 : bytes.length;
    }

    void dropArray() {
      bytes = null;
    }

    public String word() {
      return word;
    }

    public long id() {
      return id;
    }

    public String tube() {
      return tube;
    }

    /** The body's length in bytes. */
    public int length() {
      return length;
    }

    @Override
    public long transitBytes() {
      return length;
    }

    /**
     * The array holding the body from index 0 to {@link #length()}, not a copy; a pooled one may be
     * longer. Only the engine writes it, right after taking the reply from its pool.
     */
    public byte[] bodyArray() {
      return bytes;
    }

    /** The body in an array of its exact length (the reply's own when it has one, else a copy). */
    public byte[] body() {
      return bytes.length == length ? bytes : Arrays.copyOf(bytes, length);
    }

    @Override
    public void release() {
      if (pool == null) {
        return;
      }
      if (isReleased) {
        throw new IllegalStateException("job " + id + "'s reply was released twice");
      }
      isReleased = true;
      pool.giveBack(this);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof JobBody j && j.word.equals(word) && j.id == id && java.util.Objects.equals(j.tube, tube)
          && Arrays.equals(j.bytes, 0, j.length, bytes, 0, length);
    }

    @Override
    public int hashCode() {
      return java.util.Objects.hash(word, id, tube, length);
    }

    @Override
    public String toString() {
      return "JobBody[" + word + " " + Long.toUnsignedString(id) + ", " + length + " bytes, tube " + tube + "]";
    }
  }

  /** {@code OK <bytes>} followed by a stats document, written as YAML. */
  record Stats(StatsDocument document) implements Reply {
    @Override
    public long transitBytes() {
      return document.heapBytes();
    }
  }

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
    /** The list and a reference per tube; the names are the tubes' own strings. */
    @Override
    public long transitBytes() {
      return 64 + 8L * names.size();
    }

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
