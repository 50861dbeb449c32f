package io.github.vertxbeanstalkd.protocol;

import java.util.Locale;

/** The four states of a job, named as stats-job prints them. */
public enum JobState {
  READY, RESERVED, DELAYED, BURIED;

  private final String word = name().toLowerCase(Locale.ROOT);

  /** The state as {@code stats-job} prints it. */
  public String word() {
    return word;
  }
}
