package io.github.vertxbeanstalkd.bus;

import io.github.vertxbeanstalkd.protocol.Reply;
import java.util.ArrayList;
import java.util.List;

/**
 * The replies for one front's sessions produced in one engine turn: one event-bus message.
 *
 * @param isReceiptWanted whether the engine wants to hear now what the front received: the bodies
 *     and documents on their way to that front reached half its budget with this message (see
 *     engine.FrontFlow). Until then the front keeps its count and sends nothing, so a turn's replies
 *     cost no second message back (measured: reserve+delete c=4 allocated 279 B a command with a
 *     receipt for every message, against 199 B before receipts).
 * @param answerBeforeNanos a replicated primary's: when (System.nanoTime) the lease on the group's
 *     lock under which these replies were made runs out, or {@link #NO_DEADLINE}. A front that gets
 *     them later (the process stood still between the engine's turn and the front's write: SIGSTOP, a
 *     long GC) must not send them: another node may have taken over meanwhile, and handed the job a
 *     RESERVED names to another client, which may have deleted it already. See {@link #isTooLate()}.
 */
public record EngineReplies(List<EngineReply> replies, boolean isReceiptWanted, long answerBeforeNanos) {
  /** Replies that may go out whenever they arrive (a node that is not a replicated primary). */
  public static final long NO_DEADLINE = Long.MIN_VALUE;

  public EngineReplies(List<EngineReply> replies, boolean isReceiptWanted) {
    this(replies, isReceiptWanted, NO_DEADLINE);
  }

  /** The lease these replies were made under has run out: they must not reach a client as they are. */
  public boolean isTooLate() {
    return answerBeforeNanos != NO_DEADLINE && System.nanoTime() - answerBeforeNanos > 0;
  }

  /**
   * {@code reply} as it must reach its client when it came too late: each of its replies an
   * INTERNAL_ERROR (one for one, so that the client stays in step; the command's effect belongs to
   * a term that ended), its pooled bodies given back.
   */
  public static EngineReply failed(EngineReply reply) {
    int n = reply.replyCount();
    if (n == 0) {
      return reply;
    }
    List<Reply> failed = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      reply.reply(i).release();
      failed.add(Reply.Word.INTERNAL_ERROR);
    }
    return new EngineReply(reply.key(), failed, reply.isComplete(), reply.holdsJobs(), reply.hasEnded());
  }
}
