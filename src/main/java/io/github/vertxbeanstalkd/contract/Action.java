package io.github.vertxbeanstalkd.contract;

/**
 * EVENTBUS.md's actions: the words a request names in its {@link #HEADER} header, one per command the
 * event-bus API serves, shared by the event-bus front that parses them and the client that sends them.
 *
 * @see <a href="{@docRoot}/../spec/EVENTBUS.html">EVENTBUS.md</a>
 */
public enum Action {
  PUT("put"),
  RESERVE("reserve"),
  RESERVE_JOB("reserve-job"),
  DELETE("delete"),
  RELEASE("release"),
  BURY("bury"),
  TOUCH("touch"),
  KICK("kick"),
  KICK_JOB("kick-job"),
  PEEK("peek"),
  PEEK_READY("peek-ready"),
  PEEK_DELAYED("peek-delayed"),
  PEEK_BURIED("peek-buried"),
  STATS_JOB("stats-job"),
  STATS_TUBE("stats-tube"),
  STATS("stats"),
  LIST_TUBES("list-tubes"),
  PAUSE_TUBE("pause-tube"),
  QUIT("quit"),
  /** Delete a tube's ready, delayed or buried jobs, or all three (docs: tube-settings.md); never reserved ones. */
  FLUSH("flush"),
  /** Enter drain mode, as SIGUSR1 does: answered by the front itself. */
  DRAIN("drain"),
  /** Leave drain mode. */
  UNDRAIN("undrain"),
  /** Read one tube's settings, or every tube's (docs: tube-settings.md); answered by the engine. */
  TUBE_SETTINGS("tube-settings"),
  /** Replace one tube's (or {@code "*"}'s) settings. */
  SET_TUBE_SETTINGS("set-tube-settings");

  /** The message header that names the action. */
  public static final String HEADER = "action";

  private final String word;

  Action(String word) {
    this.word = word;
  }

  /** The action as the header spells it. */
  public String word() {
    return word;
  }

  /** The action {@code word} names, or null for a word EVENTBUS.md does not define. */
  public static Action of(String word) {
    if (word == null) {
      return null;
    }
    for (Action a : values()) {
      if (a.word.equals(word)) {
        return a;
      }
    }
    return null;
  }
}
