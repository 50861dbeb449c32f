package io.github.vertxbeanstalkd.bus;

import java.util.List;

/** The replies for one transport's connections produced in one engine turn: one event-bus message. */
public record EngineReplies(List<EngineReply> replies) {}
