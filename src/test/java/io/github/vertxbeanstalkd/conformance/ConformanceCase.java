package io.github.vertxbeanstalkd.conformance;

import java.util.List;
import java.util.Map;

/**
 * One recorded conversation with a fresh server: its steps and the replies beanstalkd 1.12 gave.
 * {@code quirkNotFollowed} is null, or why this server deliberately answers otherwise.
 */
record ConformanceCase(String name, String file, int line, Integer maxJobSizeBytes, String quirkNotFollowed,
    List<Step> steps) {

  enum Kind { SEND, OPEN, CLOSE, SHUTDOWN, SLEEP, DRAIN }

  /**
   * One action and the replies recorded after it, per connection letter. {@code payload} is set
   * for SEND, {@code sleepSeconds} for SLEEP, {@code conn} for the connection kinds.
   */
  record Step(int line, String text, Kind kind, char conn, byte[] payload, double sleepSeconds,
      Map<Character, Expected> expected) {}

  /** What one connection received after a step: bytes, then possibly the end of the stream. */
  record Expected(byte[] bytes, boolean isClosed) {}
}
