package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.protocol.Command;
import java.util.List;

/**
 * One event-bus request waiting its turn in a session: the command, and the tubes it acts on.
 * The session uses {@code tube} and watches {@code watchTubes} while the command runs (either may
 * be null); {@code keepsPriority} makes a bury keep the job's own priority.
 */
record BusStep(String tube, List<String> watchTubes, Command command, boolean keepsPriority) {

  /** Gives the session the tubes the command acts on, and returns the command to run. */
  Command prepare(Session s, Tubes tubes, JobTable table) {
    tubes.use(s, tube == null ? null : tubes.getOrCreate(tube));
    tubes.watchOnly(s, watchTubes == null ? List.of() : watchTubes);
    if (keepsPriority && command instanceof Command.Bury bury) {
      int j = s.reservedJob(table, bury.id());
      if (j != JobTable.NONE) {
        return new Command.Bury(bury.id(), table.priority(j));
      }
    }
    return command;
  }
}
