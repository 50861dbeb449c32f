package io.github.vertxbeanstalkd.bench;

/** Receives each complete reply; details are read from the connection while the call lasts. */
interface ReplyHandler {
  void onReply(BenchConnection connection, ReplyKind kind, long nowNanos);
}
