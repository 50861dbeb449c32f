package io.github.vertxbeanstalkd.bus;

import io.github.vertxbeanstalkd.protocol.Reply;
import java.util.List;
import java.util.Objects;

/**
 * Replies for one session, in order, with what the session looks like after them.
 * {@code isComplete}: every submitted command is answered (a blocked reserve leaves it false).
 * {@code holdsJobs}: the session has reserved jobs. {@code hasEnded}: the session is closed and
 * nothing more comes for it. A notice carries no replies: the session's last job timed out, or it ended.
 *
 * <p>Immutable. The usual turn of a session ends with one reply, which it carries without a list
 * of its own; read it with {@link #replyCount()} and {@link #reply(int)} to keep it that way.
 */
public final class EngineReply {
  private final SessionKey key;
  /** The one reply, or null when there is a list (or none). */
  private final Reply only;
  private final List<Reply> replies;
  private final boolean isComplete;
  private final boolean holdsJobs;
  private final boolean hasEnded;

  public EngineReply(SessionKey key, List<Reply> replies, boolean isComplete, boolean holdsJobs, boolean hasEnded) {
    this(key, null, List.copyOf(replies), isComplete, holdsJobs, hasEnded);
  }

  private EngineReply(SessionKey key, Reply only, List<Reply> replies, boolean isComplete, boolean holdsJobs,
      boolean hasEnded) {
    this.key = key;
    this.only = only;
    this.replies = replies;
    this.isComplete = isComplete;
    this.holdsJobs = holdsJobs;
    this.hasEnded = hasEnded;
  }

  /** One reply, kept as it is. */
  public static EngineReply of(SessionKey key, Reply only, boolean isComplete, boolean holdsJobs, boolean hasEnded) {
    return new EngineReply(key, Objects.requireNonNull(only), null, isComplete, holdsJobs, hasEnded);
  }

  public SessionKey key() {
    return key;
  }

  /** The replies as a list (a new one of one element when there is one reply). */
  public List<Reply> replies() {
    return only != null ? List.of(only) : replies;
  }

  public int replyCount() {
    return only != null ? 1 : replies.size();
  }

  public Reply reply(int i) {
    if (only != null) {
      Objects.checkIndex(i, 1);
      return only;
    }
    return replies.get(i);
  }

  public boolean isComplete() {
    return isComplete;
  }

  public boolean holdsJobs() {
    return holdsJobs;
  }

  public boolean hasEnded() {
    return hasEnded;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EngineReply r && Objects.equals(r.key, key) && r.replies().equals(replies())
        && r.isComplete == isComplete && r.holdsJobs == holdsJobs && r.hasEnded == hasEnded;
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, replies(), isComplete, holdsJobs, hasEnded);
  }

  @Override
  public String toString() {
    return "EngineReply[key=" + key + ", replies=" + replies() + ", isComplete=" + isComplete + ", holdsJobs="
        + holdsJobs + ", hasEnded=" + hasEnded + "]";
  }
}
