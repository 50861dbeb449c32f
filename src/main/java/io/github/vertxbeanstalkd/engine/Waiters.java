package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.protocol.Reply;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Sessions blocked in a reserve, and what ends their wait: a job for them (the best ready job of
 * their tubes goes to the first waiter), their timeout, or DEADLINE_SOON.
 */
final class Waiters {
  private final Sessions sessions;
  private final JobTransitions jobs;
  private final JobTable table;
  private final BiConsumer<Session, Reply> replies;
  /** What the session queued behind its reserve runs next. */
  private final Consumer<Session> resume;
  /** True on a standby, whose jobs are its primary's to hand out. */
  private final BooleanSupplier isFollowing;

  Waiters(Sessions sessions, JobTransitions jobs, BiConsumer<Session, Reply> replies, Consumer<Session> resume,
      BooleanSupplier isFollowing) {
    this.sessions = sessions;
    this.jobs = jobs;
    this.table = jobs.table;
    this.replies = replies;
    this.resume = resume;
    this.isFollowing = isFollowing;
  }

  /** {@code s} waits for a job until {@code timeoutNanos} (Long.MAX_VALUE: for ever). */
  void park(Session s, long timeoutNanos) {
    sessions.park(s, timeoutNanos);
    sessions.scheduleWake(s, s.nextWakeNanos(table));
  }

  /** protocol.txt: a job that becomes ready goes straight to a blocked reserver, if any. */
  void readied(Tube t, long now) {
    if (t.hasWaiters() && !t.isPaused(now)) {
      serve(now);
    }
  }

  /**
   * Hands ready jobs to blocked reservers: the best job among their tubes goes to the first waiter.
   * Never on a standby: a reserve left waiting on a primary that stepped down must not get a job its
   * successor's records made ready (the successor may hand it to another client); it times out.
   */
  void serve(long now) {
    if (isFollowing.getAsBoolean()) {
      return;
    }
    while (true) {
      int best = JobTable.NONE;
      java.util.List<Tube> tubes = sessions.tubesWithWaiters();
      for (int i = 0; i < tubes.size(); i++) {
        Tube t = tubes.get(i);
        int j = t.bestReady();
        if (j != JobTable.NONE && !t.isPaused(now) && (best == JobTable.NONE || table.isBefore(j, best))) {
          best = j;
        }
      }
      if (best == JobTable.NONE) {
        return;
      }
      Session s = jobs.tubeOf(best).firstWaiter();
      sessions.unpark(s);
      replies.accept(s, jobs.reserve(s, best, now));
      resume.accept(s);
    }
  }

  /** Ends waits whose time has come, at most {@code maxSteps}; returns how many it looked at. */
  int wakeDue(long now, int maxSteps) {
    int steps = 0;
    for (Session s = sessions.dueWake(now); s != null && steps < maxSteps; s = sessions.dueWake(now), steps++) {
      if (s.isInSafetyMargin(table, now)) {
        wake(s, Reply.Word.DEADLINE_SOON);
      } else if (s.hasTimedOut(now)) {
        wake(s, Reply.Word.TIMED_OUT);
      } else {
        sessions.scheduleWake(s, s.nextWakeNanos(table));
      }
    }
    return steps;
  }

  /** Ends {@code s}'s wait with {@code r}; what it queued behind the reserve runs next. */
  void wake(Session s, Reply r) {
    sessions.unpark(s);
    replies.accept(s, r);
    resume.accept(s);
  }
}
