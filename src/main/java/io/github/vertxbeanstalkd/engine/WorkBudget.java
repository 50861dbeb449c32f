package io.github.vertxbeanstalkd.engine;

/**
 * The work one request may do in one engine turn: a number of steps (a key read, a key sorted, a
 * job looked at) and a number of body bytes searched. Spent, the request stops and says where it
 * got to, so that a long walk never holds the engine from its other clients.
 */
final class WorkBudget {
  private int steps;
  private long bytes;

  WorkBudget(int steps, long bytes) {
    this.steps = steps;
    this.bytes = bytes;
  }

  /** Takes one step; false, taking nothing, when none is left. */
  boolean take() {
    if (steps <= 0) {
      return false;
    }
    steps--;
    return true;
  }

  /** Whether a body may still be searched; the search that runs past the bound still ends. */
  boolean hasBytes() {
    return bytes > 0;
  }

  void spendBytes(long n) {
    bytes -= n;
  }
}
