package io.github.vertxbeanstalkd.bench;

import java.util.function.Supplier;

/** One step of a case (setup, load, cleanup), over TCP ({@link Phase}) or the bus ({@link BusPhase}). */
abstract class CaseStep {
  private final ErrorLog errors;

  CaseStep(ErrorLog errors) {
    this.errors = errors;
  }

  ErrorLog errors() {
    return errors;
  }

  /** Sends the first commands or requests. */
  abstract void start(long nowNanos);

  abstract boolean isDone();

  /** Called every few milliseconds at least. */
  void onTick(long nowNanos) {}

  /** Counters for a stall or failure report. */
  abstract String describeProgress();

  /** Counts an error; its text is built only while the log still keeps samples. */
  void countError(Supplier<String> description) {
    errors.add(errors.isSampling() ? description.get() : null);
  }
}
