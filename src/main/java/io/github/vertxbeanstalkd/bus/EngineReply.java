package io.github.vertxbeanstalkd.bus;

import io.github.vertxbeanstalkd.protocol.Reply;
import java.util.List;

/**
 * Replies for one connection, in order. {@code isComplete} is true once every submitted command
 * is answered; a blocked reserve leaves it false until the reserve ends.
 */
public record EngineReply(long localId, List<Reply> replies, boolean isComplete) {}
