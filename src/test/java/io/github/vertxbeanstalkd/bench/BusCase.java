package io.github.vertxbeanstalkd.bench;

import java.util.Map;

/**
 * One put or cycle case over the event bus, on a fresh tube, with its cleanup: a put case deletes
 * the jobs it put, a cycle case ends its workers' sessions.
 */
final class BusCase {
  /** cycle's reserves wait this long at most (EVENTBUS.md: {@code timeout}, in seconds). */
  static final long RESERVE_TIMEOUT_SECONDS = 5;
  /** Deletes outstanding during a put case's cleanup. */
  private static final int CLEANUP_WINDOW = 256;

  private BusCase() {}

  /** Runs one case; a failure mid-way gives a result with errors. */
  static CaseResult run(BusTarget target, CaseSpec spec, String clientKind, long stallMillis) {
    ErrorLog errors = new ErrorLog();
    Meter meter = new Meter();
    String server = target.name() + " (" + clientKind + ")";
    try {
      BusCalls calls = BusCalls.create(clientKind, target, Commands.freshTube(), spec.connections(),
          RESERVE_TIMEOUT_SECONDS);
      BusLoop loop = new BusLoop(target.vertx(), target.context(), stallMillis);
      String note = switch (spec.mode()) {
        case PUT -> put(loop, spec, calls, errors, meter);
        case CYCLE -> cycle(loop, spec, calls, errors, meter);
        default -> throw new IllegalArgumentException("the bus runs put and cycle only, not " + spec.mode());
      };
      return CaseResult.of(spec.label(), server, meter, errors, Map.of(), note);
    } catch (RuntimeException e) {
      errors.addFatal("case failed: " + e);
      return CaseResult.of(spec.label(), server, meter, errors, Map.of(), "stopped early");
    }
  }

  private static String put(BusLoop loop, CaseSpec spec, BusCalls calls, ErrorLog errors, Meter meter) {
    LongList ids = new LongList();
    boolean isComplete = loop.run(new BusPutPhase(errors, meter, calls, spec.bodyBytes(), spec.connections(),
        spec.pipeline(), spec.warmupMillis(), spec.durationMillis(), spec.count(), ids));
    loop.run(new BusDeletePhase(errors, calls, ids, CLEANUP_WINDOW));
    return isComplete ? null : "stopped early";
  }

  private static String cycle(BusLoop loop, CaseSpec spec, BusCalls calls, ErrorLog errors, Meter meter) {
    boolean isComplete = loop.run(new BusCyclePhase(errors, meter, calls, spec.bodyBytes(), spec.connections(),
        spec.pipeline(), spec.connections(), spec.maxBacklog(), spec.warmupMillis(), spec.durationMillis()));
    loop.run(new BusQuitPhase(errors, calls, spec.connections()));
    return isComplete ? "latency is put sent to job received" : "stopped early";
  }
}
