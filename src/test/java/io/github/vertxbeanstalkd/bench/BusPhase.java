package io.github.vertxbeanstalkd.bench;

/**
 * One step of a bus case (load, cleanup), run by a {@link BusLoop}. Every method runs on the
 * loop's one Vert.x context, so a phase needs no locks; replies arrive as future callbacks.
 */
abstract class BusPhase extends CaseStep {
  /** Replies and failures seen: the loop watches it for stalls. */
  long answers;
  /** Set by the loop when it gives up on the phase: send nothing more. */
  boolean isAborted;

  BusPhase(ErrorLog errors) {
    super(errors);
  }

  /** Counts a request that failed. */
  void failed(String action, Throwable cause) {
    countError(() -> action + " failed: " + cause);
  }
}
