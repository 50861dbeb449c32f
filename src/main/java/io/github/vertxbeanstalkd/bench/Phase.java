package io.github.vertxbeanstalkd.bench;

/** One step of a case (setup, load, cleanup) driven by the {@link SelectorLoop}. */
abstract class Phase implements ReplyHandler {
  private final ErrorLog errors;

  Phase(ErrorLog errors) {
    this.errors = errors;
  }

  ErrorLog errors() {
    return errors;
  }

  /** Queues the first commands. */
  abstract void start(long nowNanos);

  abstract boolean isDone();

  /** Called after every wake-up of the loop, at least every few milliseconds. */
  void onTick(long nowNanos) {}

  /** Counters for a stall or failure report. */
  abstract String describeProgress();

  /** Counts an unexpected reply. */
  void unexpected(BenchConnection connection, String expected) {
    if (errors.isSampling()) {
      errors.add("expected " + expected + ", got \"" + connection.replyLine() + "\"");
    } else {
      errors.add(null);
    }
  }
}
