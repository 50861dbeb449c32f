package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.persistence.BinlogListener;

/**
 * The log's listener for engine tests over a real binlog: they drive the engine's turns themselves,
 * so what became durable is not passed on, and a failure of the log fails the test.
 */
final class QuietLogListener implements BinlogListener {
  static final QuietLogListener INSTANCE = new QuietLogListener();

  private QuietLogListener() {}

  @Override
  public void onDurable(long sequence) {}

  @Override
  public void onFailure(Throwable cause) {
    throw new AssertionError("the log failed", cause);
  }
}
