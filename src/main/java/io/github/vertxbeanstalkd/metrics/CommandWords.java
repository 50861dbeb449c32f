package io.github.vertxbeanstalkd.metrics;

import java.util.List;

/** The {@code command} label's values: the protocol's command words, and "invalid" for lines that are none. */
final class CommandWords {
  private CommandWords() {}

  static final List<String> ALL = List.of("put", "use", "reserve", "reserve-with-timeout", "reserve-job",
      "delete", "release", "bury", "touch", "watch", "ignore", "peek", "peek-ready", "peek-delayed",
      "peek-buried", "kick", "kick-job", "stats-job", "stats-tube", "stats", "list-tubes", "list-tube-used",
      "list-tubes-watched", "pause-tube", "quit", "invalid");
}
