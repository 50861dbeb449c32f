package io.github.vertxbeanstalkd.bench;

/** One step of a TCP case, driven by the {@link SelectorLoop}. */
abstract class Phase extends CaseStep implements ReplyHandler {
  Phase(ErrorLog errors) {
    super(errors);
  }

  /** Counts an unexpected reply. */
  void unexpected(BenchConnection connection, String expected) {
    countError(() -> "expected " + expected + ", got \"" + connection.replyLine() + "\"");
  }
}
