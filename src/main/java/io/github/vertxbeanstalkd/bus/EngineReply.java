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
 * <p>Immutable. The usual turn of a session ends with one or two replies (a reserve and the delete
 * pipelined with it), which it carries without a list of its own; read them with {@link
 * #replyCount()} and {@link #reply(int)} to keep it that way.
 */
public final class EngineReply {
  private final SessionKey key;
  /** The first and second reply when there are one or two; null when there is a list (or none). */
  private final Reply first;
  private final Reply second;
  private final List<Reply> replies;
  private final boolean isComplete;
  private final boolean holdsJobs;
  private final boolean hasEnded;

  public EngineReply(SessionKey key, List<Reply> replies, boolean isComplete, boolean holdsJobs, boolean hasEnded) {
    this(key, null, null, List.copyOf(replies), isComplete, holdsJobs, hasEnded);
  }

  private EngineReply(SessionKey key, Reply first, Reply second, List<Reply> replies, boolean isComplete,
      boolean holdsJobs, boolean hasEnded) {
    this.key = key;
    this.first = first;
    this.second = second;
    this.replies = replies;
    this.isComplete = isComplete;
    this.holdsJobs = holdsJobs;
    this.hasEnded = hasEnded;
  }

  /** One reply, kept as it is. */
  public static EngineReply of(SessionKey key, Reply only, boolean isComplete, boolean holdsJobs, boolean hasEnded) {
    return new EngineReply(key, Objects.requireNonNull(only), null, null, isComplete, holdsJobs, hasEnded);
  }

  /** Two replies, in order, kept as they are. */
  public static EngineReply of(SessionKey key, Reply first, Reply second, boolean isComplete, boolean holdsJobs,
      boolean hasEnded) {
    return new EngineReply(key, Objects.requireNonNull(first), Objects.requireNonNull(second), null, isComplete,
        holdsJobs, hasEnded);
  }

  public SessionKey key() {
    return key;
  }

  /** The replies as a list (a new one when there are one or two). */
  public List<Reply> replies() {
    if (first == null) {
      return replies;
    }
    return second == null ? List.of(first) : List.of(first, second);
  }

  public int replyCount() {
    return first == null ? replies.size() : second == null ? 1 : 2;
  }

  public Reply reply(int i) {
    if (first == null) {
      return replies.get(i);
    }
    Objects.checkIndex(i, replyCount());
    return i == 0 ? first : second;
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
