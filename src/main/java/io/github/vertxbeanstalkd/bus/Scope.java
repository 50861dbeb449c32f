package io.github.vertxbeanstalkd.bus;

import java.util.List;

/**
 * The tubes one submitted command acts on, when its front names them with the command instead of
 * with {@code use} and {@code watch} (an event-bus request names its tube): the session uses
 * {@code tube} and watches {@code watchTubes} while the command runs or waits, without counting
 * cmd-use or cmd-watch, and afterwards has what it had before. Either may be null: unchanged.
 */
public record Scope(String tube, List<String> watchTubes) {
  /** The session's own tubes. */
  public static final Scope NONE = new Scope(null, null);

  public static Scope using(String tube) {
    return new Scope(tube, null);
  }

  public static Scope watching(List<String> tubes) {
    return new Scope(null, tubes);
  }

  public boolean isNone() {
    return tube == null && watchTubes == null;
  }
}
