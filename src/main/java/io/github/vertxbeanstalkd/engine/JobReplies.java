package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.protocol.JobBodyPool;
import io.github.vertxbeanstalkd.protocol.Reply;

/** The RESERVED and FOUND replies that carry a job's body, taken from a pool the fronts give them back to. */
final class JobReplies {
  private final JobTable table;
  private final JobBodyPool pool = new JobBodyPool();

  JobReplies(JobTable table) {
    this.table = table;
  }

  /** The reply that hands out ({@code isReserved}) or shows the job in slot {@code j} of {@code tube}. */
  Reply.JobBody of(int j, String tube, boolean isReserved) {
    // A copy, not the store's bytes: the reply may wait (for the binlog, for a client that does
    // not read) while the job is deleted and its room reused.
    Reply.JobBody reply = pool.take(isReserved ? "RESERVED" : "FOUND", table.id(j), tube, table.bodyLength(j));
    table.copyBody(j, reply.bodyArray());
    return reply;
  }
}
