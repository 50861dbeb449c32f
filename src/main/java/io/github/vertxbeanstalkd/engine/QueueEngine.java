package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.Counter;
import io.github.vertxbeanstalkd.protocol.JobState;
import io.github.vertxbeanstalkd.protocol.Reply;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns every tube, job and session, and applies commands to them one at a time. Single-threaded
 * by design: only its verticle calls it, so it needs no locks. Time comes from one {@link Clock};
 * the caller keeps a timer armed for {@link #nextDeadlineNanos()} and calls {@link #tick()}.
 *
 * <p>Every change of a job's state goes through one of the small transition methods at the bottom
 * ({@code store, makeReady, reserve, unreserve, delay, bury, kick, remove}), one explicit step each.
 */
public final class QueueEngine implements Command.Handler<Session, Reply> {
  private static final Logger log = LoggerFactory.getLogger(QueueEngine.class);
  static final long SECOND = 1_000_000_000L;
  /** protocol.txt: the safety margin before a reserved job's deadline. */
  static final long SAFETY_MARGIN_NANOS = SECOND;
  /** Work done per call before yielding the event loop (timer events, kicked jobs). */
  static final int MAX_STEPS_PER_TURN = 10_000;

  final Clock clock;
  final ReplySink sink;
  final ServerInfo info;
  final long maxJobSizeBytes;
  final Tubes tubes = new Tubes();
  final JobIndex jobs = new JobIndex();
  final Sessions sessions = new Sessions();
  final long[] counters = new long[Counter.values().length];
  final long startNanos;
  long nextJobId = 1;
  long totalJobs;
  long jobTimeouts;
  boolean isDraining;

  /** Delayed jobs (until ready) and reserved jobs (until their TTR ends), soonest first. */
  final IndexedHeap<Job> deadlines = new IndexedHeap<>() {
    boolean less(Job a, Job b) { return a.isDueBefore(b); }
    int positionOf(Job j) { return j.deadlineHeapPosition; }
    void setPosition(Job j, int p) { j.deadlineHeapPosition = p; }
  };
  private final ArrayDeque<Session> runnable = new ArrayDeque<>();
  private final ArrayDeque<Session> yielded = new ArrayDeque<>();
  private final ArrayList<Session> dirty = new ArrayList<>();
  private boolean isYieldRequested;

  public QueueEngine(Clock clock, ReplySink sink, ServerInfo info, long maxJobSizeBytes) {
    this.clock = clock;
    this.sink = sink;
    this.info = info;
    this.maxJobSizeBytes = maxJobSizeBytes;
    this.startNanos = clock.nanos();
  }

  // ---------------------------------------------------------------- entry points

  /** A new connection. */
  public Session open(Object connectionKey) {
    Session s = sessions.open(connectionKey);
    s.used = tubes.getOrCreate(Tubes.DEFAULT);
    s.used.usingCount++;
    s.watched.add(s.used);
    s.used.watchingCount++;
    return s;
  }

  /** Runs {@code commands} in order for {@code s}; replies reach the sink, perhaps later. */
  public void submit(Session s, List<Command> commands) {
    if (s.isClosed) {
      return;
    }
    s.queued.addAll(commands);
    if (!s.isWaiting && !yielded.contains(s)) {
      runnable.add(s);
    }
    runAndFlush();
  }

  /** The connection is gone: its reserved jobs return to ready (no timeout, no release counted). */
  public void close(Session s) {
    if (s.isClosed) {
      return;
    }
    s.isClosed = true;
    s.queued.clear();
    if (s.isWaiting) {
      sessions.unpark(s);
    }
    long now = clock.nanos();
    for (Job j = s.reserved.first(); j != null; j = s.reserved.first()) {
      unreserve(j);
      makeReady(j, now);
    }
    s.used.usingCount--;
    tubes.deleteIfUnused(s.used);
    for (Tube t : s.watched) {
      t.watchingCount--;
      tubes.deleteIfUnused(t);
    }
    sessions.remove(s);
    runAndFlush();
  }

  /** Fires everything due by now, bounded per call; returns when to call again. */
  public long tick() {
    long now = clock.nanos();
    int steps = 0;
    for (Job j = deadlines.peek(); j != null && j.deadlineNanos <= now && steps < MAX_STEPS_PER_TURN;
        j = deadlines.peek(), steps++) {
      if (j.state == JobState.DELAYED) {
        unDelay(j);
        makeReady(j, now);
      } else {
        // BEHAVIOURS.md 6: a TTR expiry counts a timeout, keeps reserves, and is never lost.
        j.timeouts++;
        jobTimeouts++;
        unreserve(j);
        makeReady(j, now);
      }
    }
    for (Tube t : tubes.endedPauses(now)) {
      t.pauseSeconds = 0;
      t.pauseEndNanos = 0;
      processQueue(now);
    }
    for (Session s = sessions.dueWake(now); s != null && steps < MAX_STEPS_PER_TURN;
        s = sessions.dueWake(now), steps++) {
      if (isInSafetyMargin(s, now)) {
        wake(s, Reply.Word.DEADLINE_SOON);
      } else if (s.waitTimeoutNanos <= now) {
        wake(s, Reply.Word.TIMED_OUT);
      } else {
        sessions.scheduleWake(s, wakeTime(s));
      }
    }
    runAndFlush();
    return steps >= MAX_STEPS_PER_TURN ? now : nextDeadlineNanos();
  }

  /** When {@link #tick()} has something to do next; Long.MAX_VALUE for never. */
  public long nextDeadlineNanos() {
    long next = Long.MAX_VALUE;
    Job j = deadlines.peek();
    if (j != null) {
      next = j.deadlineNanos;
    }
    next = Math.min(next, tubes.nextPauseEndNanos());
    return Math.min(next, sessions.nextWakeNanos());
  }

  /** True when a long command yielded and {@link #resumeYielded()} should run on a later turn. */
  public boolean hasYieldedWork() {
    return !yielded.isEmpty();
  }

  /** Continues commands that yielded the event loop. */
  public void resumeYielded() {
    runnable.addAll(yielded);
    yielded.clear();
    runAndFlush();
  }

  /** BEHAVIOURS.md 12: from now on every put that would be stored answers DRAINING. */
  public void enterDrainMode() {
    isDraining = true;
  }

  public boolean isDraining() {
    return isDraining;
  }

  /** The session of a connection, or null once it is closed. */
  public Session session(Object connectionKey) {
    return sessions.get(connectionKey);
  }

  long nowNanos() {
    return clock.nanos();
  }

  private void runAndFlush() {
    for (Session s = runnable.poll(); s != null; s = runnable.poll()) {
      run(s);
    }
    for (Session s : dirty) {
      s.isDirty = false;
      if (!s.isClosed) {
        List<Reply> replies = s.outbox;
        s.outbox = new ArrayList<>(4);
        sink.deliver(s, replies, s.isIdle());
      }
    }
    dirty.clear();
  }

  private void run(Session s) {
    while (!s.isWaiting && !s.isClosed) {
      Command c = s.queued.poll();
      if (c == null) {
        return;
      }
      Reply r;
      try {
        r = c.dispatch(this, s);
      } catch (RuntimeException bug) {
        // STYLE.md: an exception is a bug; log it and still answer, so the client is never stuck.
        log.error("command {} failed", c.getClass().getSimpleName(), bug);
        r = Reply.Word.INTERNAL_ERROR;
      }
      if (r != null) {
        reply(s, r);
      }
      if (isYieldRequested) {
        isYieldRequested = false;
        yielded.add(s);
        return;
      }
    }
  }

  private void reply(Session s, Reply r) {
    s.outbox.add(r);
    if (!s.isDirty) {
      s.isDirty = true;
      dirty.add(s);
    }
  }

  private void wake(Session s, Reply r) {
    sessions.unpark(s);
    reply(s, r);
    runnable.add(s);
  }

  private void count(Counter c) {
    counters[c.ordinal()]++;
  }

  // ---------------------------------------------------------------- commands

  @Override
  public Reply put(Session s, Command.Put cmd) {
    count(Counter.PUT);
    s.isProducer = true;
    // BEHAVIOURS.md 4: a put that fails on its trailer or on drain mode still uses up an id.
    long id = nextJobId++;
    if (!cmd.hasCrlf()) {
      return Reply.Word.EXPECTED_CRLF;
    }
    if (isDraining) {
      return Reply.Word.DRAINING;
    }
    long now = clock.nanos();
    // protocol.txt: a ttr of 0 is silently raised to 1.
    int ttr = cmd.ttrSeconds() == 0 ? 1 : cmd.ttrSeconds();
    Job j = new Job(id, s.used, cmd.body(), now, cmd.priority(), cmd.delaySeconds(), ttr);
    store(j);
    if (cmd.delaySeconds() != 0) {
      delay(j, now);
    } else {
      makeReady(j, now);
    }
    return Reply.Number.inserted(id);
  }

  @Override
  public Reply jobTooBig(Session s, Command.JobTooBig cmd) {
    count(Counter.PUT);
    return Reply.Word.JOB_TOO_BIG;
  }

  @Override
  public Reply use(Session s, Command.Use cmd) {
    count(Counter.USE);
    Tube t = tubes.getOrCreate(cmd.tube());
    if (t != s.used) {
      Tube old = s.used;
      t.usingCount++;
      s.used = t;
      old.usingCount--;
      tubes.deleteIfUnused(old);
    }
    return new Reply.Using(t.name);
  }

  @Override
  public Reply reserve(Session s, Command.Reserve cmd) {
    count(cmd.hasTimeout() ? Counter.RESERVE_WITH_TIMEOUT : Counter.RESERVE);
    s.isWorker = true;
    long now = clock.nanos();
    Job best = null;
    for (Tube t : s.watched) {
      Job j = t.ready.peek();
      if (j != null && !t.isPaused(now) && (best == null || j.isBefore(best))) {
        best = j;
      }
    }
    if (best != null) {
      return reserve(s, best, now);
    }
    // BEHAVIOURS.md 6: DEADLINE_SOON only when no job is ready (upstream issue #646).
    if (isInSafetyMargin(s, now)) {
      return Reply.Word.DEADLINE_SOON;
    }
    if (cmd.timeoutSeconds() == 0) {
      return Reply.Word.TIMED_OUT;
    }
    long timeout = cmd.hasTimeout() ? now + cmd.timeoutSeconds() * SECOND : Long.MAX_VALUE;
    sessions.park(s, timeout);
    sessions.scheduleWake(s, wakeTime(s));
    return null;
  }

  @Override
  public Reply reserveJob(Session s, Command.ReserveJob cmd) {
    Job j = jobs.get(cmd.id());
    if (j == null || j.state == JobState.RESERVED) {
      return Reply.Word.NOT_FOUND;
    }
    s.isWorker = true;
    if (j.state == JobState.DELAYED) {
      unDelay(j);
    } else if (j.state == JobState.BURIED) {
      unBury(j);
    } else {
      unReady(j);
    }
    return reserve(s, j, clock.nanos());
  }

  @Override
  public Reply delete(Session s, Command.Delete cmd) {
    count(Counter.DELETE);
    Job j = jobs.get(cmd.id());
    if (j == null || (j.state == JobState.RESERVED && j.reservedBy != s)) {
      return Reply.Word.NOT_FOUND;
    }
    j.tube.deleteCount++;
    remove(j);
    return Reply.Word.DELETED;
  }

  @Override
  public Reply release(Session s, Command.Release cmd) {
    count(Counter.RELEASE);
    Job j = ownReserved(s, cmd.id());
    if (j == null) {
      return Reply.Word.NOT_FOUND;
    }
    long now = clock.nanos();
    j.priority = cmd.priority();
    j.delaySeconds = cmd.delaySeconds();
    j.releases++;
    unreserve(j);
    if (cmd.delaySeconds() != 0) {
      delay(j, now);
    } else {
      makeReady(j, now);
    }
    return Reply.Word.RELEASED;
  }

  @Override
  public Reply bury(Session s, Command.Bury cmd) {
    count(Counter.BURY);
    Job j = ownReserved(s, cmd.id());
    if (j == null) {
      return Reply.Word.NOT_FOUND;
    }
    j.priority = cmd.priority();
    unreserve(j);
    bury(j);
    return Reply.Word.BURIED;
  }

  @Override
  public Reply touch(Session s, Command.Touch cmd) {
    count(Counter.TOUCH);
    Job j = ownReserved(s, cmd.id());
    if (j == null) {
      return Reply.Word.NOT_FOUND;
    }
    j.deadlineNanos = clock.nanos() + j.ttrNanos();
    deadlines.update(j);
    return Reply.Word.TOUCHED;
  }

  @Override
  public Reply watch(Session s, Command.Watch cmd) {
    count(Counter.WATCH);
    Tube t = tubes.getOrCreate(cmd.tube());
    if (!s.watched.contains(t)) {
      s.watched.add(t);
      t.watchingCount++;
    }
    return Reply.Number.watching(s.watched.size());
  }

  @Override
  public Reply ignore(Session s, Command.Ignore cmd) {
    count(Counter.IGNORE);
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
    // BEHAVIOURS.md 9: the last entry moves into the hole.
    Tube t = s.watched.get(at);
    Tube last = s.watched.remove(s.watched.size() - 1);
    if (last != t) {
      s.watched.set(at, last);
    }
    t.watchingCount--;
    tubes.deleteIfUnused(t);
    return Reply.Number.watching(s.watched.size());
  }

  @Override
  public Reply peek(Session s, Command.Peek cmd) {
    count(Counter.PEEK);
    return found(jobs.get(cmd.id()));
  }

  @Override
  public Reply peekState(Session s, Command.PeekState cmd) {
    Tube t = s.used;
    switch (cmd.state()) {
      case READY:
        count(Counter.PEEK_READY);
        return found(t.ready.peek());
      case DELAYED:
        count(Counter.PEEK_DELAYED);
        return found(t.delayed.peek());
      default:
        count(Counter.PEEK_BURIED);
        return found(t.buried.first());
    }
  }

  @Override
  public Reply kick(Session s, Command.Kick cmd) {
    if (cmd.kickedSoFar() == 0) {
      count(Counter.KICK);
    }
    Tube t = s.used;
    long now = clock.nanos();
    long kicked = cmd.kickedSoFar();
    // BEHAVIOURS.md 8: buried jobs if there are any, otherwise delayed ones.
    boolean isBuriedKick = cmd.kickedSoFar() == 0 ? !t.buried.isEmpty() : cmd.isBuriedKick();
    int steps = 0;
    while (kicked < cmd.bound() && steps++ < MAX_STEPS_PER_TURN) {
      Job j = isBuriedKick ? t.buried.first() : t.delayed.peek();
      if (j == null) {
        return Reply.Number.kicked(kicked);
      }
      kick(j, now);
      kicked++;
    }
    if (kicked < cmd.bound() && (isBuriedKick ? !t.buried.isEmpty() : !t.delayed.isEmpty())) {
      // A huge kick continues on a later turn so other connections stay responsive.
      s.queued.addFirst(new Command.Kick(cmd.bound(), kicked, isBuriedKick));
      isYieldRequested = true;
      return null;
    }
    return Reply.Number.kicked(kicked);
  }

  @Override
  public Reply kickJob(Session s, Command.KickJob cmd) {
    Job j = jobs.get(cmd.id());
    if (j == null || (j.state != JobState.BURIED && j.state != JobState.DELAYED)) {
      return Reply.Word.NOT_FOUND;
    }
    kick(j, clock.nanos());
    return Reply.Word.KICKED;
  }

  @Override
  public Reply statsJob(Session s, Command.StatsJob cmd) {
    count(Counter.STATS_JOB);
    Job j = jobs.get(cmd.id());
    return j == null ? Reply.Word.NOT_FOUND : StatsDocuments.job(j, clock.nanos());
  }

  @Override
  public Reply statsTube(Session s, Command.StatsTube cmd) {
    count(Counter.STATS_TUBE);
    Tube t = tubes.get(cmd.tube());
    return t == null ? Reply.Word.NOT_FOUND : StatsDocuments.tube(t, clock.nanos());
  }

  @Override
  public Reply stats(Session s, Command.Stats cmd) {
    count(Counter.STATS);
    return StatsDocuments.server(this);
  }

  @Override
  public Reply listTubes(Session s, Command.ListTubes cmd) {
    count(Counter.LIST_TUBES);
    return StatsDocuments.names(tubes.inOrder());
  }

  @Override
  public Reply listTubeUsed(Session s, Command.ListTubeUsed cmd) {
    count(Counter.LIST_TUBE_USED);
    return new Reply.Using(s.used.name);
  }

  @Override
  public Reply listTubesWatched(Session s, Command.ListTubesWatched cmd) {
    count(Counter.LIST_TUBES_WATCHED);
    return StatsDocuments.names(s.watched);
  }

  @Override
  public Reply pauseTube(Session s, Command.PauseTube cmd) {
    count(Counter.PAUSE_TUBE);
    Tube t = tubes.get(cmd.tube());
    if (t == null) {
      return Reply.Word.NOT_FOUND;
    }
    t.pauseCount++;
    long now = clock.nanos();
    if (cmd.delaySeconds() == 0) {
      // BEHAVIOURS.md 10: a pause of 0 ends any pause at once.
      tubes.setPause(t, 0, 0);
      processQueue(now);
    } else {
      tubes.setPause(t, cmd.delaySeconds(), now + cmd.delaySeconds() * SECOND);
    }
    return Reply.Word.PAUSED;
  }

  @Override
  public Reply quit(Session s, Command.Quit cmd) {
    close(s);
    return null;
  }

  @Override
  public Reply invalid(Session s, Command.Invalid cmd) {
    if (cmd.counter() != Counter.NONE) {
      count(cmd.counter());
    }
    return cmd.reply();
  }

  // ---------------------------------------------------------------- helpers

  private static Reply found(Job j) {
    return j == null ? Reply.Word.NOT_FOUND : Reply.JobBody.found(j.id, j.body);
  }

  private static Job ownReserved(Session s, long id) {
    for (Job j = s.reserved.first(); j != null; j = j.next) {
      if (j.id == id) {
        return j;
      }
    }
    return null;
  }

  private static boolean isInSafetyMargin(Session s, long now) {
    long soonest = s.soonestDeadlineNanos();
    return soonest != Long.MAX_VALUE && now >= soonest - SAFETY_MARGIN_NANOS;
  }

  /** A waiting session needs attention at its timeout or when its safety margin begins. */
  private static long wakeTime(Session s) {
    long soonest = s.soonestDeadlineNanos();
    long margin = soonest == Long.MAX_VALUE ? Long.MAX_VALUE : soonest - SAFETY_MARGIN_NANOS;
    return Math.min(s.waitTimeoutNanos, margin);
  }

  /** Hands ready jobs to blocked reservers: the best job among their tubes goes to the first waiter. */
  private void processQueue(long now) {
    while (true) {
      Job best = null;
      for (Tube t : sessions.tubesWithWaiters()) {
        Job j = t.ready.peek();
        if (j != null && !t.isPaused(now) && (best == null || j.isBefore(best))) {
          best = j;
        }
      }
      if (best == null) {
        return;
      }
      Session s = best.tube.waiting.iterator().next();
      sessions.unpark(s);
      reply(s, reserve(s, best, now));
      runnable.add(s);
    }
  }

  // ---------------------------------------------------------------- transitions

  private void store(Job j) {
    jobs.put(j);
    j.tube.totalJobs++;
    totalJobs++;
  }

  private void makeReady(Job j, long now) {
    j.state = JobState.READY;
    j.tube.ready.add(j);
    if (j.isUrgent()) {
      j.tube.urgentReadyCount++;
    }
    if (!j.tube.waiting.isEmpty() && !j.tube.isPaused(now)) {
      processQueue(now);
    }
  }

  private void unReady(Job j) {
    j.tube.ready.remove(j);
    if (j.isUrgent()) {
      j.tube.urgentReadyCount--;
    }
  }

  private Reply reserve(Session s, Job j, long now) {
    unReady(j);
    j.state = JobState.RESERVED;
    j.reservedBy = s;
    j.reserves++;
    j.deadlineNanos = now + j.ttrNanos();
    deadlines.add(j);
    s.reserved.addLast(j);
    j.tube.reservedCount++;
    return Reply.JobBody.reserved(j.id, j.body);
  }

  private void unreserve(Job j) {
    deadlines.remove(j);
    j.reservedBy.reserved.remove(j);
    j.reservedBy = null;
    j.tube.reservedCount--;
  }

  private void delay(Job j, long now) {
    j.state = JobState.DELAYED;
    j.deadlineNanos = now + j.delayNanos();
    j.tube.delayed.add(j);
    deadlines.add(j);
  }

  private void unDelay(Job j) {
    j.tube.delayed.remove(j);
    deadlines.remove(j);
  }

  private void bury(Job j) {
    j.state = JobState.BURIED;
    j.buries++;
    j.tube.buried.addLast(j);
  }

  private void unBury(Job j) {
    j.tube.buried.remove(j);
  }

  private void kick(Job j, long now) {
    if (j.state == JobState.BURIED) {
      unBury(j);
    } else {
      unDelay(j);
    }
    j.kicks++;
    makeReady(j, now);
  }

  private void remove(Job j) {
    switch (j.state) {
      case READY -> unReady(j);
      case RESERVED -> unreserve(j);
      case DELAYED -> unDelay(j);
      case BURIED -> unBury(j);
    }
    jobs.remove(j.id);
    tubes.deleteIfUnused(j.tube);
  }
}
