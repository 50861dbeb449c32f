package io.github.vertxbeanstalkd.engine;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/**
 * One turn of the engine's thread (a request, a batch of them, a timer) as a JFR event: how long
 * the engine held its event loop, and for what. Off unless a recording enables it, e.g.
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
  @Label("What ran")
  String what;

  /**
   * Ends the turn begun at {@link #start()} and records it if the recording wants it; {@code what}
   * (a request's class, or a word) is named only then.
   */
  void end(Object what) {
    end();
    if (shouldCommit()) {
      this.what = what instanceof Class<?> type ? type.getSimpleName() : String.valueOf(what);
      commit();
    }
  }

  static EngineTurn start() {
    EngineTurn turn = new EngineTurn();
    turn.begin();
    return turn;
  }
}
