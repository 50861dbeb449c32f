package io.github.vertxbeanstalkd.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * The selector, connections and error count of one case against one server. Preload and
 * cleanup use a few pipelined connections of their own; they are not measured.
 */
final class CaseRun implements AutoCloseable {
  static final int AUX_CONNECTIONS = 4;
  static final int AUX_PIPELINE = 64;

  final CaseSpec spec;
  final ServerAddress address;
  final ErrorLog errors = new ErrorLog();
  /** The measured load; what it holds is reported even when the case fails part-way. */
  final Meter meter = new Meter();
  /** Case-specific numbers for the result. */
  final Map<String, Double> extra = new LinkedHashMap<>();
  private final SelectorLoop loop;
  /** Told each connection's local port before it connects, or null. */
  private final IntConsumer localPorts;

  CaseRun(CaseSpec spec, ServerAddress address, long stallMillis, IntConsumer localPorts)
      throws IOException {
    this.spec = spec;
    this.address = address;
    this.loop = new SelectorLoop(stallMillis);
    this.localPorts = localPorts;
  }

  /** Runs one case; a server that cannot be reached or fails mid-way gives a result with errors. */
  static CaseResult execute(CaseSpec spec, ServerAddress address, long stallMillis) {
    return execute(spec, address, stallMillis, Long.MIN_VALUE, 0, null);
  }

  /**
   * As {@link #execute(CaseSpec, ServerAddress, long)}, with the timed window starting at
   * {@code anchorNanos} (Long.MIN_VALUE: when the load starts) and, if {@code sliceMillis} > 0,
   * figures per slice of the window in the result; {@code localPorts}, if not null, is told
   * the local port of every connection before it connects.
   */
  static CaseResult execute(CaseSpec spec, ServerAddress address, long stallMillis,
      long anchorNanos, long sliceMillis, IntConsumer localPorts) {
    CaseRun run = null;
    try {
      run = new CaseRun(spec, address, stallMillis, localPorts);
      if (anchorNanos != Long.MIN_VALUE) {
        run.meter.anchor(anchorNanos);
      }
      if (sliceMillis > 0 && spec.durationMillis() > 0) {
        run.meter.slice(sliceMillis, spec.durationMillis());
      }
      return switch (spec.mode()) {
        case PUT -> PutCase.run(run);
        case CYCLE -> CycleCase.run(run);
        case DRAIN -> DrainCase.run(run);
        case FILL -> FillCase.run(run);
        case PREFILL -> PrefillCase.run(run);
      };
    } catch (IOException | RuntimeException e) {
      if (run == null) {
        ErrorLog failed = new ErrorLog();
        failed.add("case failed: " + e);
        return CaseResult.of(spec.label(), address, new Meter(), failed, Map.of(), null);
      }
      run.errors.addFatal("case failed: " + e);
      return run.result("stopped early");
    } finally {
      if (run != null) {
        run.close();
      }
    }
  }

  CaseResult result(String note) {
    int slices = meter.sliceCount();
    for (int i = 0; i < slices; i++) {
      extra.put("slice" + i + "OpsPerSec", meter.sliceOps(i) / meter.sliceSeconds());
      extra.put("slice" + i + "P99Us", meter.sliceLatencyNanosAt(i, i, 99) / 1e3);
      extra.put("slice" + i + "MaxUs", meter.sliceMaxLatencyNanos(i, i) / 1e3);
    }
    if (slices > 1) {
      // Everything but the first slice: the figures of a window that starts one slice later.
      long ops = 0;
      for (int i = 1; i < slices; i++) {
        ops += meter.sliceOps(i);
      }
      extra.put("afterSlice0OpsPerSec", ops / (meter.sliceSeconds() * (slices - 1)));
      extra.put("afterSlice0P99Us", meter.sliceLatencyNanosAt(1, slices - 1, 99) / 1e3);
      extra.put("afterSlice0P999Us", meter.sliceLatencyNanosAt(1, slices - 1, 99.9) / 1e3);
      extra.put("afterSlice0MaxUs", meter.sliceMaxLatencyNanos(1, slices - 1) / 1e3);
    }
    return CaseResult.of(spec.label(), address, meter, errors, extra, note);
  }

  List<BenchConnection> connect(int count, int maxInFlight) throws IOException {
    List<BenchConnection> connections = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      connections.add(new BenchConnection(loop, address, spec.bodyBytes(), maxInFlight, localPorts));
    }
    return connections;
  }

  /** Runs a phase; false if it was cut short (the error log says why). */
  boolean run(Phase phase) throws IOException {
    return loop.run(phase);
  }

  /** Uses {@code tube} on fresh connections. */
  List<BenchConnection> producers(int count, int maxInFlight, String tube) throws IOException {
    List<BenchConnection> connections = connect(count, maxInFlight);
    run(new SetupPhase(errors, connections, Commands.use(tube)));
    return connections;
  }

  /** Watches only {@code tube} on fresh connections. */
  List<BenchConnection> consumers(int count, int maxInFlight, String tube) throws IOException {
    List<BenchConnection> connections = connect(count, maxInFlight);
    run(new SetupPhase(errors, connections, Commands.watch(tube), Commands.IGNORE_DEFAULT));
    return connections;
  }

  /** Puts {@code jobs} pipelined into {@code tube}, unmeasured; ids go to {@code ids} if given. */
  boolean preload(String tube, long jobs, LongList ids, Meter meter) throws IOException {
    return preload(tube, jobs, ids, meter, AUX_CONNECTIONS, AUX_PIPELINE);
  }

  /** Like {@link #preload(String, long, LongList, Meter)} on {@code connections} x {@code pipeline}. */
  boolean preload(String tube, long jobs, LongList ids, Meter meter, int connectionCount,
      int pipeline) throws IOException {
    List<BenchConnection> connections = producers(connectionCount, pipeline, tube);
    boolean isComplete = run(new PutPhase(errors, meter, connections, spec.bodyBytes(),
        pipeline, 0, -1, jobs, ids));
    close(connections);
    return isComplete;
  }

  /** Deletes the jobs with these ids, so the case leaves the server as it found it. */
  void deleteAll(LongList ids) throws IOException {
    if (ids.size() == 0) {
      return;
    }
    List<BenchConnection> connections = connect(AUX_CONNECTIONS, AUX_PIPELINE);
    run(new DeletePhase(errors, new Meter(), connections, ids, AUX_PIPELINE));
    close(connections);
  }

  void close(List<BenchConnection> connections) {
    connections.forEach(BenchConnection::close);
  }

  @Override
  public void close() {
    try {
      loop.close();
    } catch (IOException e) {
      errors.add("closing connections failed: " + e);
    }
  }
}
