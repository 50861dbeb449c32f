package io.github.vertxbeanstalkd.bench;

import java.util.List;

/** Sends the same setup commands (use, watch, ignore) on every connection; awaits the replies. */
final class SetupPhase extends Phase {
  private final List<BenchConnection> connections;
  private final byte[][] commands;
  private long awaited;

  SetupPhase(ErrorLog errors, List<BenchConnection> connections, byte[]... commands) {
    super(errors);
    this.connections = connections;
    this.commands = commands;
  }

  @Override
  void start(long nowNanos) {
    for (BenchConnection connection : connections) {
      for (byte[] command : commands) {
        connection.send(command, Commands.TAG_SETUP, nowNanos);
        awaited++;
      }
    }
  }

  @Override
  public void onReply(BenchConnection connection, ReplyKind kind, long nowNanos) {
    awaited--;
    if (kind != ReplyKind.USING && kind != ReplyKind.WATCHING) {
      unexpected(connection, "USING or WATCHING");
    }
  }

  @Override
  boolean isDone() {
    return awaited == 0;
  }

  @Override
  String describeProgress() {
    return "setup replies awaited: " + awaited;
  }
}
