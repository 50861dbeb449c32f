package io.github.vertxbeanstalkd.bench;

/**
 * One benchmark case: what load to apply and for how long.
 *
 * @param connections producers for cycle (and as many consumers), connections otherwise
 * @param pipeline commands in flight per connection
 * @param durationMillis measured time after the warm-up (put, cycle); -1 with {@code count}
 * @param count puts in a counted put case, else 0
 * @param jobs jobs to preload and drain (drain) or to put (fill, prefill)
 * @param queuedJobs jobs left queued in another tube while a put case runs, else 0
 * @param maxBacklog cycle: jobs allowed to wait unreserved before producers pause; 0: one per
 *     consumer
 * @param pid the server's process id for fill's RSS readings, or 0
 */
public record CaseSpec(Mode mode, int connections, int pipeline, int bodyBytes,
    long warmupMillis, long durationMillis, long count, long jobs, long queuedJobs,
    long maxBacklog, long pid) {

  /** The load shapes the generator knows. */
  public enum Mode { PUT, CYCLE, DRAIN, FILL, PREFILL }

  public CaseSpec {
    if (connections < 1 || pipeline < 1 || bodyBytes < 0) {
      throw new IllegalArgumentException("connections and pipeline must be >= 1, size >= 0");
    }
    if (mode == Mode.CYCLE && bodyBytes < Commands.TIMESTAMP_BYTES) {
      throw new IllegalArgumentException("cycle bodies carry an 8-byte timestamp: size >= 8");
    }
  }

  public CaseSpec withPid(long processId) {
    return new CaseSpec(mode, connections, pipeline, bodyBytes, warmupMillis, durationMillis,
        count, jobs, queuedJobs, maxBacklog, processId);
  }

  /** The case's name in reports, e.g. "put c=50 p=1". */
  public String label() {
    return switch (mode) {
      case PUT -> "put c=" + connections + " p=" + pipeline
          + (queuedJobs > 0 ? " queued=" + queuedJobs : "")
          + (durationMillis < 0 ? " n=" + count : "");
      case CYCLE -> "cycle " + connections + "+" + connections;
      case DRAIN -> "drain " + jobs + " c=" + connections;
      case FILL -> "fill " + jobs + " x " + bodyBytes + " B";
      case PREFILL -> "prefill " + jobs + " x " + bodyBytes + " B";
    };
  }
}
