package io.github.vertxbeanstalkd.api;

import io.github.vertxbeanstalkd.bus.Scope;
import io.github.vertxbeanstalkd.protocol.Command;

/**
 * One event-bus request, checked and turned into the protocol's command. {@code session} is null
 * for a request without one; {@code scope} names the tubes the command acts on.
 */
record BusRequest(String action, String session, String nodeId, Scope scope, Command command) {

  boolean isQuit() {
    return command instanceof Command.Quit;
  }
}
