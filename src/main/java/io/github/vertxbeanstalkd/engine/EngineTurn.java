package io.github.vertxbeanstalkd.engine;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;
import jdk.jfr.Timespan;

/**
 * One turn of the engine's thread (a request, a batch of them, a timer) as a JFR event: how long
 * the engine held its event loop, how much of that it ran on a CPU, and for what. Timed only with
 * {@code -Dvertxbeanstalkd.engineTurns=true}, and recorded only when a recording enables it, e.g.
 * {@code -XX:StartFlightRecording:settings=...} with {@code vertxbeanstalkd.EngineTurn#enabled=true}.
 */
@Name("vertxbeanstalkd.EngineTurn")
@Label("Engine turn")
@Category("vertx-beanstalkd")
@Description("How long one request, batch or timer held the queue engine's thread")
@Enabled(false)
@StackTrace(false)
@Threshold("1 ms")
final class EngineTurn extends Event {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  @Label("What ran")
  String what;

  /** The thread's CPU time in the turn: its length less the time the thread waited to run (descheduled, stopped). */
  @Label("CPU time")
  @Timespan(Timespan.NANOSECONDS)
  long cpuNanos;

  /**
   * Ends the turn begun at {@link #start()} and records it if the recording wants it; {@code what}
   * (a request's class, or a word) is named only then.
   */
  void end(Object what) {
    end();
    if (shouldCommit()) {
      this.what = what instanceof Class<?> type ? type.getSimpleName() : String.valueOf(what);
      cpuNanos = THREADS.getCurrentThreadCpuTime() - cpuNanos;
      commit();
    }
  }

  static EngineTurn start() {
    EngineTurn turn = new EngineTurn();
    if (turn.isEnabled()) {
      // The CPU clock is read only while a recording wants these events.
      turn.cpuNanos = THREADS.getCurrentThreadCpuTime();
    }
    turn.begin();
    return turn;
  }
}
