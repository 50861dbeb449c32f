package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.persistence.Binlog;
import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.Counter;
import io.github.vertxbeanstalkd.protocol.JobState;
import io.github.vertxbeanstalkd.protocol.Reply;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * What each command that changes jobs does, through the state's owners, and the reply it gets.
 *
 * @see <a href="{@docRoot}/../spec/BEHAVIOURS.html">BEHAVIOURS.md</a>
 * @see <a href="{@docRoot}/../spec/REPLICATION.html">REPLICATION.md</a>
 */
final class CommandHandlers extends SessionCommands {
  /** What the handlers work with; {@code yield} and {@code close} reach back into the engine. */
  record Context(Tubes tubes, JobTransitions jobs, MemoryCap memory, CommandCounts counts, Binlog binlog,
      Clock clock, Waiters waiters, StatsDocuments stats, BooleanSupplier isDraining, Runnable yield,
      Consumer<Session> close, BooleanSupplier acceptsChanges, BooleanSupplier isFollowing) {}

  private final TubeFlush flushing;

  CommandHandlers(Context context) {
    super(context);
    this.flushing = new TubeFlush(context.jobs(), context.clock());
  }

  @Override
  public Reply putLine(Session s, Command.PutLine cmd) {
    // BEHAVIOURS.md 4: 1.12 counts the put and takes its id when the line passes. No reply.
    c.counts().count(Counter.PUT);
    if (cmd.isTooBig()) {
      s.announceTooBig();
    } else {
      s.markProducer();
      s.announcePut(jobs.takeId());
    }
    return null;
  }

  @Override
  public Reply put(Session s, Command.Put cmd) {
    long id = s.takeAnnouncedPut();
    if (id == 0) {
      c.counts().count(Counter.PUT);
      s.markProducer();
      // BEHAVIOURS.md 4: a put that fails on its trailer or on drain mode still uses up an id.
      id = jobs.takeId();
    }
    if (!cmd.hasCrlf()) {
      return Reply.Word.EXPECTED_CRLF;
    }
    if (c.isDraining().getAsBoolean()) {
      return Reply.Word.DRAINING;
    }
    if (id < 0) {
      // REPLICATION.md: a primary issues ids only from a range the group's store gave it, never twice.
      return Reply.Word.INTERNAL_ERROR;
    }
    Reply refused = refusedChange(true);
    if (refused != null) {
      return refused;
    }
    if (!c.memory().admits(table.roomFor(cmd.body().length()))) {
      // maxMemory: this job would pass the cap; every command that frees memory still works.
      return Reply.Word.OUT_OF_MEMORY;
    }
    if (!jobs.rules.admitsPut(s.used(), cmd.body().length())) {
      // The tube's maxJobs or maxBytes: OUT_OF_MEMORY, the refusal clients already retry.
      return Reply.Word.OUT_OF_MEMORY;
    }
    // protocol.txt: a ttr of 0 is silently raised to 1.
    int ttr = cmd.ttrSeconds() == 0 ? 1 : cmd.ttrSeconds();
    try {
      jobs.store(id, s.used(), cmd.body(), now(), cmd.priority(), cmd.delaySeconds(), ttr);
    } catch (OutOfMemoryError full) {
      // The job store's off-heap memory is exhausted: refuse this job as beanstalkd does when
      // malloc fails; every job already stored is untouched.
      return Reply.Word.OUT_OF_MEMORY;
    }
    return Reply.Number.inserted(id);
  }

  @Override
  public Reply jobTooBig(Session s, Command.JobTooBig cmd) {
    if (!s.takeTooBigAnnounced()) {
      c.counts().count(Counter.PUT);
    }
    return Reply.Word.JOB_TOO_BIG;
  }

  @Override
  public Reply reserve(Session s, Command.Reserve cmd) {
    c.counts().count(cmd.isWithTimeout() ? Counter.RESERVE_WITH_TIMEOUT : Counter.RESERVE);
    if (c.isFollowing().getAsBoolean()) {
      // A standby's jobs are its primary's to hand out (a client's reserve read late on a primary
      // that stepped down meanwhile): the job may be reserved or deleted there already.
      return Reply.Word.INTERNAL_ERROR;
    }
    s.markWorker();
    long now = now();
    int best = JobTable.NONE;
    java.util.List<Tube> watched = s.watched();
    for (int i = 0; i < watched.size(); i++) {
      Tube t = watched.get(i);
      int j = t.bestReady();
      if (j != JobTable.NONE && !t.isPaused(now) && (best == JobTable.NONE || table.isBefore(j, best))) {
        best = j;
      }
    }
    if (best != JobTable.NONE) {
      return jobs.reserve(s, best, now);
    }
    // BEHAVIOURS.md 6: DEADLINE_SOON only when no job is ready (upstream issue #646).
    if (s.isInSafetyMargin(table, now)) {
      return Reply.Word.DEADLINE_SOON;
    }
    if (cmd.timeoutSeconds() == 0) {
      return Reply.Word.TIMED_OUT;
    }
    c.waiters().park(s, cmd.hasTimeout() ? now + cmd.timeoutSeconds() * Clock.SECOND_NANOS : Long.MAX_VALUE);
    return null;
  }

  @Override
  public Reply reserveJob(Session s, Command.ReserveJob cmd) {
    int j = jobs.get(cmd.id());
    if (j == JobTable.NONE || table.state(j) == JobState.RESERVED) {
      return Reply.Word.NOT_FOUND;
    }
    Reply refused = table.state(j) == JobState.READY && !c.isFollowing().getAsBoolean() ? null : refusedChange(false);
    if (refused != null) {
      return refused;
    }
    s.markWorker();
    return jobs.reserve(s, j, now());
  }

  @Override
  public Reply delete(Session s, Command.Delete cmd) {
    c.counts().count(Counter.DELETE);
    int j = jobs.get(cmd.id());
    if (j == JobTable.NONE || (table.state(j) == JobState.RESERVED && table.reservedBy(j) != s.index)) {
      return Reply.Word.NOT_FOUND;
    }
    Reply refused = refusedChange(false);
    if (refused != null) {
      return refused;
    }
    jobs.tubeOf(j).countDelete();
    jobs.remove(j);
    return Reply.Word.DELETED;
  }

  @Override
  public Reply release(Session s, Command.Release cmd) {
    c.counts().count(Counter.RELEASE);
    int j = s.reservedJob(table, cmd.id());
    if (j == JobTable.NONE) {
      return Reply.Word.NOT_FOUND;
    }
    Reply refused = refusedChange(true);
    if (refused != null) {
      return refused;
    }
    // protocol.txt: release may answer BURIED; here when the tube's maxReserves buried the job.
    return jobs.release(j, cmd.priority(), cmd.delaySeconds(), now()) ? Reply.Word.RELEASED : Reply.Word.BURIED;
  }

  @Override
  public Reply bury(Session s, Command.Bury cmd) {
    c.counts().count(Counter.BURY);
    int j = s.reservedJob(table, cmd.id());
    if (j == JobTable.NONE) {
      return Reply.Word.NOT_FOUND;
    }
    Reply refused = refusedChange(true);
    if (refused != null) {
      return refused;
    }
    jobs.bury(j, cmd.keepsPriority() ? table.priority(j) : cmd.priority());
    return Reply.Word.BURIED;
  }

  @Override
  public Reply touch(Session s, Command.Touch cmd) {
    c.counts().count(Counter.TOUCH);
    int j = s.reservedJob(table, cmd.id());
    if (j == JobTable.NONE) {
      return Reply.Word.NOT_FOUND;
    }
    if (c.isFollowing().getAsBoolean()) {
      // Held from before this node stepped down: the group has released it with this node's sessions.
      return Reply.Word.INTERNAL_ERROR;
    }
    jobs.touch(j, now());
    return Reply.Word.TOUCHED;
  }

  @Override
  public Reply kick(Session s, Command.Kick cmd) {
    c.counts().count(Counter.KICK);
    // BEHAVIOURS.md 8: buried jobs if there are any, otherwise delayed ones.
    return kick(s, new KickProgress(cmd.bound(), 0, s.used().hasBuried()));
  }

  /** Kicks up to the bound, or yields after a turn's worth and keeps where it stopped. */
  Reply kick(Session s, KickProgress progress) {
    Reply refused = refusedChange(true);
    if (refused != null) {
      return refused;
    }
    Tube t = s.used();
    long now = now();
    long kicked = progress.kickedSoFar();
    boolean isBuriedKick = progress.isBuriedKick();
    int steps = 0;
    while (kicked < progress.bound() && steps++ < QueueEngine.MAX_STEPS_PER_TURN) {
      int j = isBuriedKick ? t.firstBuried() : t.firstDelayed();
      if (j == JobTable.NONE) {
        return Reply.Number.kicked(kicked);
      }
      jobs.kick(j, now);
      kicked++;
    }
    if (kicked < progress.bound() && (isBuriedKick ? t.hasBuried() : t.hasDelayed())) {
      // A huge kick continues on a later turn so other connections stay responsive.
      s.commands.continueLater(new KickProgress(progress.bound(), kicked, isBuriedKick));
      c.yield().run();
      return null;
    }
    return Reply.Number.kicked(kicked);
  }

  @Override
  public Reply flush(Session s, Command.Flush cmd) {
    return flush(s, flushing.start(s.used(), cmd));
  }

  /** Deletes a slice of the used tube's jobs in the flush's states, or all that are left; see {@link TubeFlush}. */
  Reply flush(Session s, FlushProgress progress) {
    Reply refused = refusedChange(false);
    if (refused != null) {
      return refused;
    }
    FlushProgress next = flushing.slice(s.used(), progress);
    if (!next.isDone()) {
      // A large tube is flushed over several turns so other connections stay responsive.
      s.commands.continueLater(next);
      c.yield().run();
      return null;
    }
    return Reply.Number.flushed(next.deletedSoFar());
  }

  @Override
  public Reply kickJob(Session s, Command.KickJob cmd) {
    int j = jobs.get(cmd.id());
    if (j == JobTable.NONE || (table.state(j) != JobState.BURIED && table.state(j) != JobState.DELAYED)) {
      return Reply.Word.NOT_FOUND;
    }
    Reply refused = refusedChange(true);
    if (refused != null) {
      return refused;
    }
    jobs.kick(j, now());
    return Reply.Word.KICKED;
  }

  /**
   * Why a change cannot be logged now, or null: checked before the change is made (inline, not
   * through a lambda, which would be an object per command). A full disk refuses what needs new space
   * (OUT_OF_MEMORY, as beanstalkd answers when it cannot store a job) but lets deletes through,
   * which only free space; a failed log refuses every change. A standby refuses every change of its
   * own (its admin page's delete, kick or flush): its jobs are its primary's, changed only by the
   * primary's records, and a change made here alone would differ from the group's.
   */
  private Reply refusedChange(boolean needsSpace) {
    if (c.isFollowing().getAsBoolean()) {
      return Reply.Word.INTERNAL_ERROR;
    }
    if (needsSpace && !c.acceptsChanges().getAsBoolean()) {
      // REPLICATION.md: whenTooFewStandbys "refuse"; reads, reserves and deletes go on.
      return Reply.Word.INTERNAL_ERROR;
    }
    return switch (c.binlog().health()) {
      case WRITING -> null;
      case DISK_FULL -> needsSpace ? Reply.Word.OUT_OF_MEMORY : null;
      case FAILED -> Reply.Word.INTERNAL_ERROR;
    };
  }
}
