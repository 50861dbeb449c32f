package io.github.vertxbeanstalkd.bench;

import io.vertx.core.Future;

/**
 * The event-bus requests a bus case sends to one tube: either the raw JSON contract
 * ({@link RawBusCalls}) or the typed client ({@link TypedBusCalls}). Worker {@code w} is a session
 * of its own, as a TCP consumer is a connection of its own.
 */
interface BusCalls {
  /** Priority 1024, no delay, 600 s to run: the TCP generator's put arguments. */
  long PRIORITY = 1024;
  long TTR_SECONDS = 600;

  /** Puts a job into the case's tube; gives its id. */
  Future<Long> put(String body);

  /** Reserves from the case's tube in worker {@code worker}'s session, waiting a few seconds at most. */
  Future<ReservedJob> reserve(int worker);

  /** Deletes a job in worker {@code worker}'s session; a negative worker sends no session. */
  Future<?> delete(int worker, long id);

  /** Ends worker {@code worker}'s session: a reserve it waits in ends. */
  Future<?> quit(int worker);

  /** How the calls are made, for reports: "raw" or "typed". */
  String kind();

  static BusCalls create(String kind, BusTarget target, String tube, int workers, long reserveTimeoutSeconds) {
    return switch (kind) {
      case "raw" -> new RawBusCalls(target.vertx(), target.address(), tube, workers, reserveTimeoutSeconds);
      case "typed" -> new TypedBusCalls(target.vertx(), target.address(), tube, workers, reserveTimeoutSeconds);
      default -> throw new IllegalArgumentException("unknown bus client " + kind + " (raw or typed)");
    };
  }
}
