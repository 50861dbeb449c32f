package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.persistence.Binlog;
import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.Counter;
import io.github.vertxbeanstalkd.protocol.JobState;
import io.github.vertxbeanstalkd.protocol.Reply;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The commands that read the queue or change a session's own tubes: use, watch, ignore, the peeks,
 * the stats and lists, pause-tube; {@link CommandHandlers} adds those that change jobs.
 *
 * @see <a href="{@docRoot}/../spec/BEHAVIOURS.html">BEHAVIOURS.md</a>
 */
abstract class SessionCommands implements Command.Handler<Session, Reply> {
  final CommandHandlers.Context c;
  final Tubes tubes;
  final JobTransitions jobs;
  final JobTable table;

  SessionCommands(CommandHandlers.Context context) {
    this.c = context;
    this.tubes = context.tubes();
    this.jobs = context.jobs();
    this.table = context.jobs().table;
  }

  @Override
  public Reply use(Session s, Command.Use cmd) {
    c.counts().count(Counter.USE);
    if (!tubes.exists(cmd.tube()) && !c.memory().admitsHeld(MemoryCap.TUBE_BYTES)) {
      return Reply.Word.OUT_OF_MEMORY;
    }
    Tube t = tubes.getOrCreate(cmd.tube());
    tubes.use(s, t);
    return new Reply.Using(t.name);
  }

  @Override
  public Reply watch(Session s, Command.Watch cmd) {
    c.counts().count(Counter.WATCH);
    boolean isNewTube = !tubes.exists(cmd.tube());
    if ((isNewTube || s.watchPosition(cmd.tube()) < 0)
        && !c.memory().admitsHeld(MemoryCap.WATCH_BYTES + (isNewTube ? MemoryCap.TUBE_BYTES : 0))) {
      return Reply.Word.OUT_OF_MEMORY;
    }
    tubes.watch(s, tubes.getOrCreate(cmd.tube()));
    return Reply.Number.watching(s.watched().size());
  }

  @Override
  public Reply ignore(Session s, Command.Ignore cmd) {
    c.counts().count(Counter.IGNORE);
    int at = s.watchPosition(cmd.tube());
    if (at >= 0 && s.watched().size() == 1) {
      return Reply.Word.NOT_IGNORED;
    }
    if (at >= 0) {
      tubes.ignore(s, at);
    }
    return Reply.Number.watching(s.watched().size());
  }

  @Override
  public Reply peek(Session s, Command.Peek cmd) {
    c.counts().count(Counter.PEEK);
    return found(jobs.get(cmd.id()));
  }

  @Override
  public Reply peekState(Session s, Command.PeekState cmd) {
    Tube t = s.used();
    switch (cmd.state()) {
      case READY:
        c.counts().count(Counter.PEEK_READY);
        return found(t.bestReady());
      case DELAYED:
        c.counts().count(Counter.PEEK_DELAYED);
        return found(t.firstDelayed());
      default:
        c.counts().count(Counter.PEEK_BURIED);
        return found(t.firstBuried());
    }
  }

  @Override
  public Reply statsJob(Session s, Command.StatsJob cmd) {
    c.counts().count(Counter.STATS_JOB);
    int j = jobs.get(cmd.id());
    return j == JobTable.NONE ? Reply.Word.NOT_FOUND : c.stats().job(j);
  }

  @Override
  public Reply statsTube(Session s, Command.StatsTube cmd) {
    c.counts().count(Counter.STATS_TUBE);
    Tube t = tubes.get(cmd.tube());
    return t == null ? Reply.Word.NOT_FOUND : c.stats().tube(t);
  }

  @Override
  public Reply stats(Session s, Command.Stats cmd) {
    c.counts().count(Counter.STATS);
    return c.stats().server();
  }

  @Override
  public Reply listTubes(Session s, Command.ListTubes cmd) {
    c.counts().count(Counter.LIST_TUBES);
    return StatsDocuments.names(tubes.inOrder());
  }

  @Override
  public Reply listTubeUsed(Session s, Command.ListTubeUsed cmd) {
    c.counts().count(Counter.LIST_TUBE_USED);
    return new Reply.Using(s.used().name);
  }

  @Override
  public Reply listTubesWatched(Session s, Command.ListTubesWatched cmd) {
    c.counts().count(Counter.LIST_TUBES_WATCHED);
    return StatsDocuments.names(s.watched());
  }

  @Override
  public Reply pauseTube(Session s, Command.PauseTube cmd) {
    c.counts().count(Counter.PAUSE_TUBE);
    Tube t = tubes.get(cmd.tube());
    if (t == null) {
      return Reply.Word.NOT_FOUND;
    }
    if (c.isFollowing().getAsBoolean()) {
      // A standby's tubes are its primary's: a pause set here would outlive its promotion unseen.
      return Reply.Word.INTERNAL_ERROR;
    }
    t.countPause();
    long now = now();
    if (cmd.delaySeconds() == 0) {
      // BEHAVIOURS.md 10: a pause of 0 ends any pause at once.
      tubes.setPause(t, 0, 0);
      c.waiters().serve(now);
    } else {
      tubes.setPause(t, cmd.delaySeconds(), now + cmd.delaySeconds() * Clock.SECOND_NANOS);
    }
    return Reply.Word.PAUSED;
  }

  @Override
  public Reply quit(Session s, Command.Quit cmd) {
    c.close().accept(s);
    return null;
  }

  @Override
  public Reply invalid(Session s, Command.Invalid cmd) {
    if (cmd.counter() != Counter.NONE) {
      c.counts().count(cmd.counter());
    }
    return cmd.reply();
  }

  long now() {
    return c.clock().nanos();
  }

  Reply found(int j) {
    return j == JobTable.NONE ? Reply.Word.NOT_FOUND : jobs.reply(j, false);
  }
}
