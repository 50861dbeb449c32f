package io.github.vertxbeanstalkd.bus;

import io.github.vertxbeanstalkd.protocol.Reply;
import java.util.List;

/**
 * Replies for one session, in order, with what the session looks like after them.
 * {@code isComplete}: every submitted command is answered (a blocked reserve leaves it false).
 * {@code holdsJobs}: the session has reserved jobs. {@code hasEnded}: the session is closed and
 * nothing more comes for it. A notice carries no replies: the session's last job timed out, or it ended.
 */
public record EngineReply(SessionKey key, List<Reply> replies, boolean isComplete, boolean holdsJobs,
    boolean hasEnded) {}
