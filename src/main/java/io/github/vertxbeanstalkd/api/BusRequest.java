package io.github.vertxbeanstalkd.api;

import io.github.vertxbeanstalkd.protocol.Command;
import java.util.List;

/**
 * One event-bus request, checked and turned into the protocol's command. {@code session} is null
 * for a request without one; {@code tube} and {@code watchTubes} are what the command acts on.
 */
record BusRequest(String action, String session, String nodeId, String tube, List<String> watchTubes,
    Command command, boolean keepsPriority) {

  boolean isQuit() {
    return command instanceof Command.Quit;
  }
}
