package io.github.vertxbeanstalkd.engine;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/**
 * One turn of the engine's verticle on its event loop (a batch of requests, a timer, a resumed
 * slice of yielded work, the binlog's news) as a JFR event, so that a recording shows how long the
 * engine held its thread. Recorded from 1 ms by default; free when no recording runs.
 */
@Name("io.github.vertxbeanstalkd.engine.EngineTurn")
@Label("Engine turn")
@Category("vertx-beanstalkd")
@Description("One turn of the queue engine on its event loop")
@StackTrace(false)
@Threshold("1 ms")
final class EngineTurn extends jdk.jfr.Event {
  /** What started the turn: requests, timer, resume, durable. */
  @Label("Cause")
  String cause;

  static EngineTurn begin(String cause) {
    EngineTurn turn = new EngineTurn();
    turn.cause = cause;
    turn.begin();
    return turn;
  }
}
