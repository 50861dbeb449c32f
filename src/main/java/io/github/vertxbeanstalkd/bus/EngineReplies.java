package io.github.vertxbeanstalkd.bus;

import java.util.List;

/** The replies for one front's sessions produced in one engine turn: one event-bus message. */
public record EngineReplies(List<EngineReply> replies) {}
