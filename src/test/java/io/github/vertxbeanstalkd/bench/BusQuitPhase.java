package io.github.vertxbeanstalkd.bench;

/** Ends every worker's session (quit), which ends the reserves they still wait in. */
final class BusQuitPhase extends BusPhase {
  private final BusCalls calls;
  private final int workers;
  private int answered;

  BusQuitPhase(ErrorLog errors, BusCalls calls, int workers) {
    super(errors);
    this.calls = calls;
    this.workers = workers;
  }

  @Override
  void start(long nowNanos) {
    for (int i = 0; i < workers; i++) {
      calls.quit(i).onComplete(reply -> {
        answered++;
        answers++;
        if (reply.failed()) {
          failed("quit", reply.cause());
        }
      });
    }
  }

  @Override
  boolean isDone() {
    return answered == workers;
  }

  @Override
  String describeProgress() {
    return "quits answered " + answered + " of " + workers;
  }
}
