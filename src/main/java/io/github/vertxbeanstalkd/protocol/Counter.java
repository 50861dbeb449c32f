package io.github.vertxbeanstalkd.protocol;

/** The per-command counters of the `stats` document, in the order beanstalkd 1.12 prints them. */
public enum Counter {
  PUT("cmd-put"),
  PEEK("cmd-peek"),
  PEEK_READY("cmd-peek-ready"),
  PEEK_DELAYED("cmd-peek-delayed"),
  PEEK_BURIED("cmd-peek-buried"),
  RESERVE("cmd-reserve"),
  RESERVE_WITH_TIMEOUT("cmd-reserve-with-timeout"),
  DELETE("cmd-delete"),
  RELEASE("cmd-release"),
  USE("cmd-use"),
  WATCH("cmd-watch"),
  IGNORE("cmd-ignore"),
  BURY("cmd-bury"),
  KICK("cmd-kick"),
  TOUCH("cmd-touch"),
  STATS("cmd-stats"),
  STATS_JOB("cmd-stats-job"),
  STATS_TUBE("cmd-stats-tube"),
  LIST_TUBES("cmd-list-tubes"),
  LIST_TUBE_USED("cmd-list-tube-used"),
  LIST_TUBES_WATCHED("cmd-list-tubes-watched"),
  PAUSE_TUBE("cmd-pause-tube"),
  /** reserve-job and kick-job have no counter in 1.12. */
  NONE(null);

  private final String statsKey;

  Counter(String statsKey) {
    this.statsKey = statsKey;
  }

  public String statsKey() {
    return statsKey;
  }
}
