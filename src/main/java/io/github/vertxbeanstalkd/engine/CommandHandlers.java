package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.Counter;
import io.github.vertxbeanstalkd.protocol.JobState;
import io.github.vertxbeanstalkd.protocol.Reply;
import java.util.function.Supplier;

/** What each command does to the engine's state, and the reply it gets. */
final class CommandHandlers implements Command.Handler<Session, Reply> {
  private final QueueEngine engine;
  private final JobTransitions jobs;

  CommandHandlers(QueueEngine engine, JobTransitions jobs) {
    this.engine = engine;
    this.jobs = jobs;
  }


  /** BEHAVIOURS.md 4: 1.12 counts the put and takes its id when the line passes. No reply. */
  Reply putLineArrived(Session s, PutAnnouncement put) {
    engine.count(Counter.PUT);
    if (put.isTooBig()) {
      s.isTooBigAnnounced = true;
    } else {
      s.isProducer = true;
      s.announcedPutId = jobs.takeId();
    }
    return null;
  }

  @Override
  public Reply put(Session s, Command.Put cmd) {
    long id = s.announcedPutId;
    if (id == 0) {
      engine.count(Counter.PUT);
      s.isProducer = true;
      // BEHAVIOURS.md 4: a put that fails on its trailer or on drain mode still uses up an id.
      id = jobs.takeId();
    }
    s.announcedPutId = 0;
    if (!cmd.hasCrlf()) {
      return Reply.Word.EXPECTED_CRLF;
    }
    if (engine.isDraining()) {
      return Reply.Word.DRAINING;
    }
    Reply refused = refusedChange(true);
    if (refused != null) {
      return refused;
    }
    if (!engine.memory.admits(jobs.table.roomFor(cmd.body().length))) {
      // maxMemory: this job would pass the cap; every command that frees memory still works.
      return Reply.Word.OUT_OF_MEMORY;
    }
    long now = engine.nowNanos();
    // protocol.txt: a ttr of 0 is silently raised to 1.
    int ttr = cmd.ttrSeconds() == 0 ? 1 : cmd.ttrSeconds();
    try {
      jobs.store(id, s.used, cmd.body(), now, cmd.priority(), cmd.delaySeconds(), ttr);
    } catch (OutOfMemoryError full) {
      // The job store's off-heap memory is exhausted: refuse this job as beanstalkd does when
      // malloc fails; every job already stored is untouched.
      return Reply.Word.OUT_OF_MEMORY;
    }
    return Reply.Number.inserted(id);
  }

  @Override
  public Reply jobTooBig(Session s, Command.JobTooBig cmd) {
    if (!s.isTooBigAnnounced) {
      engine.count(Counter.PUT);
    }
    s.isTooBigAnnounced = false;
    return Reply.Word.JOB_TOO_BIG;
  }

  @Override
  public Reply use(Session s, Command.Use cmd) {
    engine.count(Counter.USE);
    if (!engine.tubes.exists(cmd.tube()) && !engine.memory.admits(MemoryCap.TUBE_BYTES)) {
      return Reply.Word.OUT_OF_MEMORY;
    }
    Tube t = engine.tubes.getOrCreate(cmd.tube());
    engine.tubes.use(s, t);
    return new Reply.Using(t.name);
  }

  @Override
  public Reply reserve(Session s, Command.Reserve cmd) {
    engine.count(cmd.isWithTimeout() ? Counter.RESERVE_WITH_TIMEOUT : Counter.RESERVE);
    s.isWorker = true;
    long now = engine.nowNanos();
    JobTable table = jobs.table;
    int best = JobTable.NONE;
    for (Tube t : s.watched) {
      int j = t.ready.peek();
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
    long timeout = cmd.hasTimeout() ? now + cmd.timeoutSeconds() * Clock.SECOND_NANOS : Long.MAX_VALUE;
    engine.sessions.park(s, timeout);
    engine.sessions.scheduleWake(s, s.nextWakeNanos(table));
    return null;
  }

  @Override
  public Reply reserveJob(Session s, Command.ReserveJob cmd) {
    int j = jobs.get(cmd.id());
    if (j == JobTable.NONE || jobs.table.state(j) == JobState.RESERVED) {
      return Reply.Word.NOT_FOUND;
    }
    Reply refused = jobs.table.state(j) == JobState.READY ? null : refusedChange(false);
    if (refused != null) {
      return refused;
    }
    s.isWorker = true;
    return jobs.reserve(s, j, engine.nowNanos());
  }

  @Override
  public Reply delete(Session s, Command.Delete cmd) {
    engine.count(Counter.DELETE);
    int j = jobs.get(cmd.id());
    if (j == JobTable.NONE || (jobs.table.state(j) == JobState.RESERVED && jobs.table.reservedBy(j) != s.index)) {
      return Reply.Word.NOT_FOUND;
    }
    return ifLoggable(false, () -> {
      jobs.tubeOf(j).deleteCount++;
      jobs.remove(j);
      return Reply.Word.DELETED;
    });
  }

  @Override
  public Reply release(Session s, Command.Release cmd) {
    engine.count(Counter.RELEASE);
    int j = s.reservedJob(jobs.table, cmd.id());
    if (j == JobTable.NONE) {
      return Reply.Word.NOT_FOUND;
    }
    return ifLoggable(true, () -> {
      jobs.release(j, cmd.priority(), cmd.delaySeconds(), engine.nowNanos());
      return Reply.Word.RELEASED;
    });
  }

  @Override
  public Reply bury(Session s, Command.Bury cmd) {
    engine.count(Counter.BURY);
    int j = s.reservedJob(jobs.table, cmd.id());
    if (j == JobTable.NONE) {
      return Reply.Word.NOT_FOUND;
    }
    return ifLoggable(true, () -> {
      jobs.bury(j, cmd.priority());
      return Reply.Word.BURIED;
    });
  }

  @Override
  public Reply touch(Session s, Command.Touch cmd) {
    engine.count(Counter.TOUCH);
    int j = s.reservedJob(jobs.table, cmd.id());
    if (j == JobTable.NONE) {
      return Reply.Word.NOT_FOUND;
    }
    jobs.touch(j, engine.nowNanos());
    return Reply.Word.TOUCHED;
  }

  @Override
  public Reply watch(Session s, Command.Watch cmd) {
    engine.count(Counter.WATCH);
    boolean isNewTube = !engine.tubes.exists(cmd.tube());
    if ((isNewTube || !s.isWatching(cmd.tube()))
        && !engine.memory.admits(MemoryCap.WATCH_BYTES + (isNewTube ? MemoryCap.TUBE_BYTES : 0))) {
      return Reply.Word.OUT_OF_MEMORY;
    }
    engine.tubes.watch(s, engine.tubes.getOrCreate(cmd.tube()));
    return Reply.Number.watching(s.watched.size());
  }

  @Override
  public Reply ignore(Session s, Command.Ignore cmd) {
    engine.count(Counter.IGNORE);
    int at = -1;
    for (int i = 0; i < s.watched.size(); i++) {
      if (s.watched.get(i).name.equals(cmd.tube())) {
        at = i;
      }
    }
    if (at < 0) {
      return Reply.Number.watching(s.watched.size());
    }
    if (s.watched.size() == 1) {
      return Reply.Word.NOT_IGNORED;
    }
    engine.tubes.ignore(s, at);
    return Reply.Number.watching(s.watched.size());
  }

  @Override
  public Reply peek(Session s, Command.Peek cmd) {
    engine.count(Counter.PEEK);
    return found(jobs.get(cmd.id()));
  }

  @Override
  public Reply peekState(Session s, Command.PeekState cmd) {
    Tube t = s.used;
    switch (cmd.state()) {
      case READY:
        engine.count(Counter.PEEK_READY);
        return found(t.ready.peek());
      case DELAYED:
        engine.count(Counter.PEEK_DELAYED);
        return found(t.delayed.peek());
      default:
        engine.count(Counter.PEEK_BURIED);
        return found(t.buried.first());
    }
  }

  @Override
  public Reply kick(Session s, Command.Kick cmd) {
    engine.count(Counter.KICK);
    // BEHAVIOURS.md 8: buried jobs if there are any, otherwise delayed ones.
    return kick(s, new KickProgress(cmd.bound(), 0, !s.used.buried.isEmpty()));
  }

  /** Kicks up to the bound, or yields after a turn's worth and queues where it stopped. */
  Reply kick(Session s, KickProgress progress) {
    Reply refused = refusedChange(true);
    if (refused != null) {
      return refused;
    }
    Tube t = s.used;
    long now = engine.nowNanos();
    long kicked = progress.kickedSoFar();
    boolean isBuriedKick = progress.isBuriedKick();
    int steps = 0;
    while (kicked < progress.bound() && steps++ < QueueEngine.MAX_STEPS_PER_TURN) {
      int j = isBuriedKick ? t.buried.first() : t.delayed.peek();
      if (j == JobTable.NONE) {
        return Reply.Number.kicked(kicked);
      }
      jobs.kick(j, now);
      kicked++;
    }
    if (kicked < progress.bound() && (isBuriedKick ? !t.buried.isEmpty() : !t.delayed.isEmpty())) {
      // A huge kick continues on a later turn so other connections stay responsive.
      s.queued.addFirst(new KickProgress(progress.bound(), kicked, isBuriedKick));
      engine.requestYield();
      return null;
    }
    return Reply.Number.kicked(kicked);
  }

  @Override
  public Reply kickJob(Session s, Command.KickJob cmd) {
    int j = jobs.get(cmd.id());
    if (j == JobTable.NONE || (jobs.table.state(j) != JobState.BURIED && jobs.table.state(j) != JobState.DELAYED)) {
      return Reply.Word.NOT_FOUND;
    }
    return ifLoggable(true, () -> {
      jobs.kick(j, engine.nowNanos());
      return Reply.Word.KICKED;
    });
  }

  @Override
  public Reply statsJob(Session s, Command.StatsJob cmd) {
    engine.count(Counter.STATS_JOB);
    int j = jobs.get(cmd.id());
    return j == JobTable.NONE ? Reply.Word.NOT_FOUND
        : StatsDocuments.job(jobs, j, engine.nowNanos(), engine.binlog.segmentOf(cmd.id()));
  }

  @Override
  public Reply statsTube(Session s, Command.StatsTube cmd) {
    engine.count(Counter.STATS_TUBE);
    Tube t = engine.tubes.get(cmd.tube());
    return t == null ? Reply.Word.NOT_FOUND : StatsDocuments.tube(t, engine.nowNanos());
  }

  @Override
  public Reply stats(Session s, Command.Stats cmd) {
    engine.count(Counter.STATS);
    return StatsDocuments.server(engine);
  }

  @Override
  public Reply listTubes(Session s, Command.ListTubes cmd) {
    engine.count(Counter.LIST_TUBES);
    return StatsDocuments.names(engine.tubes.inOrder());
  }

  @Override
  public Reply listTubeUsed(Session s, Command.ListTubeUsed cmd) {
    engine.count(Counter.LIST_TUBE_USED);
    return new Reply.Using(s.used.name);
  }

  @Override
  public Reply listTubesWatched(Session s, Command.ListTubesWatched cmd) {
    engine.count(Counter.LIST_TUBES_WATCHED);
    return StatsDocuments.names(s.watched);
  }

  @Override
  public Reply pauseTube(Session s, Command.PauseTube cmd) {
    engine.count(Counter.PAUSE_TUBE);
    Tube t = engine.tubes.get(cmd.tube());
    if (t == null) {
      return Reply.Word.NOT_FOUND;
    }
    t.pauseCount++;
    long now = engine.nowNanos();
    if (cmd.delaySeconds() == 0) {
      // BEHAVIOURS.md 10: a pause of 0 ends any pause at once.
      engine.tubes.setPause(t, 0, 0);
      engine.processQueue(now);
    } else {
      engine.tubes.setPause(t, cmd.delaySeconds(), now + cmd.delaySeconds() * Clock.SECOND_NANOS);
    }
    return Reply.Word.PAUSED;
  }

  @Override
  public Reply quit(Session s, Command.Quit cmd) {
    engine.close(s);
    return null;
  }

  @Override
  public Reply invalid(Session s, Command.Invalid cmd) {
    if (cmd.counter() != Counter.NONE) {
      engine.count(cmd.counter());
    }
    return cmd.reply();
  }

  /** Applies {@code change} unless the binlog cannot take it now; then the reply says why. */
  private Reply ifLoggable(boolean needsSpace, Supplier<Reply> change) {
    Reply refused = refusedChange(needsSpace);
    return refused != null ? refused : change.get();
  }

  /**
   * Why a change cannot be logged now, or null. A full disk refuses what needs new space
   * (OUT_OF_MEMORY, as beanstalkd answers when it cannot store a job) but lets deletes through,
   * which only free space; a failed log refuses every change.
   */
  private Reply refusedChange(boolean needsSpace) {
    return switch (engine.binlog.health()) {
      case WRITING -> null;
      case DISK_FULL -> needsSpace ? Reply.Word.OUT_OF_MEMORY : null;
      case FAILED -> Reply.Word.INTERNAL_ERROR;
    };
  }

  private Reply found(int j) {
    return j == JobTable.NONE ? Reply.Word.NOT_FOUND : jobs.reply(j, false);
  }
}
