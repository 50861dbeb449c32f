package io.github.vertxbeanstalkd.bench;

/**
 * One step of a bus case (load, cleanup), run by a {@link BusLoop}. Every method runs on the
 * loop's one Vert.x context, so a phase needs no locks; replies arrive as future callbacks.
 */
abstract class BusPhase {
  private final ErrorLog errors;
  /** Replies and failures seen: the loop watches it for stalls. */
  long answers;
  /** Set by the loop when it gives up on the phase: send nothing more. */
  boolean isAborted;

  BusPhase(ErrorLog errors) {
    this.errors = errors;
  }

  ErrorLog errors() {
    return errors;
  }

  /** Sends the first requests. */
  abstract void start(long nowNanos);

  abstract boolean isDone();

  /** Called every few milliseconds. */
  void onTick(long nowNanos) {}

  /** Counters for a stall or failure report. */
  abstract String describeProgress();

  /** Counts a request that failed. */
  void failed(String action, Throwable cause) {
    if (errors.isSampling()) {
      errors.add(action + " failed: " + cause);
    } else {
      errors.add(null);
    }
  }
}
