package io.github.vertxbeanstalkd.bench;

/** Deletes jobs by id over the bus, {@code window} requests outstanding: the cleanup after put cases. */
final class BusDeletePhase extends BusPhase {
  private final BusCalls calls;
  private final LongList ids;
  private final int window;
  private int next;
  private long inFlight;

  BusDeletePhase(ErrorLog errors, BusCalls calls, LongList ids, int window) {
    super(errors);
    this.calls = calls;
    this.ids = ids;
    this.window = window;
  }

  @Override
  void start(long nowNanos) {
    for (int i = 0; i < window; i++) {
      send();
    }
  }

  private void send() {
    if (next < ids.size() && !isAborted) {
      inFlight++;
      calls.delete(-1, ids.get(next++)).onComplete(reply -> {
        inFlight--;
        answers++;
        if (reply.failed()) {
          failed("delete", reply.cause());
        }
        send();
      });
    }
  }

  @Override
  boolean isDone() {
    return inFlight == 0 && next == ids.size();
  }

  @Override
  String describeProgress() {
    return "deletes sent " + next + " of " + ids.size() + ", in flight " + inFlight;
  }
}
