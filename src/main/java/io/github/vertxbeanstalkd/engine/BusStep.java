package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.protocol.Command;
import java.util.List;

/**
 * One event-bus request waiting its turn in a session: the command, and the tubes it acts on.
 * The session uses {@code tube} and watches {@code watchTubes} while the command runs (either may
 * be null); {@code keepsPriority} makes a bury keep the job's own priority.
 */
record BusStep(String tube, List<String> watchTubes, Command command, boolean keepsPriority) {}
