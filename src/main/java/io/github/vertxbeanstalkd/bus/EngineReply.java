package io.github.vertxbeanstalkd.bus;

import io.github.vertxbeanstalkd.protocol.Reply;
import java.util.List;

/**
 * Replies for one client, in order. {@code isComplete} is true once every submitted command is
 * answered; a blocked reserve leaves it false until the reserve ends. {@code hasEnded} says the
 * engine has closed the client's session (an event-bus quit): nothing more comes for it.
 */
public record EngineReply(ClientRef client, List<Reply> replies, boolean isComplete, boolean hasEnded) {
  public EngineReply(ClientRef client, List<Reply> replies, boolean isComplete) {
    this(client, replies, isComplete, false);
  }
}
