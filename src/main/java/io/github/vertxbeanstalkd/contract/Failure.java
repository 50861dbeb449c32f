package io.github.vertxbeanstalkd.contract;

/**
 * EVENTBUS.md's failure words, each with the failure code the event-bus front passes to
 * {@code message.fail(code, WORD)}. The codes borrow HTTP's meanings so that they read at a glance.
 *
 * @see <a href="{@docRoot}/../spec/EVENTBUS.html">EVENTBUS.md</a>
 */
public enum Failure {
  BAD_FORMAT(400),
  NOT_FOUND(404),
  TIMED_OUT(408),
  DEADLINE_SOON(409),
  JOB_TOO_BIG(413),
  INTERNAL_ERROR(500),
  UNKNOWN_COMMAND(501),
  DRAINING(503),
  OUT_OF_MEMORY(507);

  private final int code;

  Failure(int code) {
    this.code = code;
  }

  /** The failure code of {@code message.fail}. */
  public int code() {
    return code;
  }

  /** The failure whose word starts {@code message}, or null. */
  public static Failure of(String message) {
    if (message == null) {
      return null;
    }
    int space = message.indexOf(' ');
    String word = space < 0 ? message : message.substring(0, space);
    for (Failure f : values()) {
      if (f.name().equals(word)) {
        return f;
      }
    }
    return null;
  }
}
