package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.bus.EngineSnapshot;
import io.github.vertxbeanstalkd.persistence.Binlog;
import io.github.vertxbeanstalkd.persistence.BinlogConfig;
import io.github.vertxbeanstalkd.persistence.RecoveredLog;
import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.Counter;
import io.github.vertxbeanstalkd.protocol.Reply;
import io.github.vertxbeanstalkd.store.DirectMemory;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns every tube, job and session, and runs each connection's commands in order, one at a time.
 * Single-threaded by design: only its verticle calls it, so it needs no locks. Time comes from
 * one {@link Clock}; the caller keeps a timer armed for {@link #nextDeadlineNanos()} and calls
 * {@link #tick()}. What commands do is in {@link CommandHandlers}; every change of a job's state
 * goes through {@link JobTransitions}, which logs it to the {@link Binlog}.
 *
 * <p>Durability: a reply leaves only once every record appended before it is durable under the
 * fsync policy, so no client ever sees an effect (INSERTED, DELETED, a job handed out) that a crash
 * could take back. Replies wait per session, in order, which also paces pipelining clients.
 */
public final class QueueEngine {
  private static final Logger log = LoggerFactory.getLogger(QueueEngine.class);
  /** Work done per call before yielding the event loop (timer events, kicked jobs). */
  static final int MAX_STEPS_PER_TURN = 10_000;

  final ServerInfo info;
  final long maxJobSizeBytes;
  final JobTable table;
  final Tubes tubes;
  final Sessions sessions;
  final JobTransitions jobs;
  final Binlog binlog;
  final long[] counters = new long[Counter.values().length];
  final long startNanos;
  final MemoryCap memory = new MemoryCap(this);
  private final Clock clock;
  private final Turns turns;
  private final DurableReplies replies;
  private final ReplySink sink;
  private final Compaction compaction;
  private boolean hasCompactionBacklog;
  private boolean isDraining;

  /** An engine that keeps its jobs in memory only. */
  public QueueEngine(Clock clock, ReplySink sink, ServerInfo info, long maxJobSizeBytes) {
    this(clock, sink, info, maxJobSizeBytes, Binlog.inMemory(BinlogConfig.inMemory()));
  }

  /** An engine that logs every change to {@code binlog} and starts from what it recovered. */
  public QueueEngine(Clock clock, ReplySink sink, ServerInfo info, long maxJobSizeBytes, Binlog binlog) {
    this(clock, sink, info, maxJobSizeBytes, binlog, new DirectMemory());
  }

  /** An engine whose job store takes at most what {@code memory} allows. */
  QueueEngine(Clock clock, ReplySink sink, ServerInfo info, long maxJobSizeBytes, Binlog binlog,
      DirectMemory memory) {
    this.table = new JobTable(memory);
    this.tubes = new Tubes(table);
    this.sessions = new Sessions(table);
    this.clock = clock;
    this.info = info;
    this.maxJobSizeBytes = maxJobSizeBytes;
    this.startNanos = clock.nanos();
    this.binlog = binlog;
    this.jobs = new JobTransitions(table, tubes, sessions, this::readied, binlog, clock);
    this.turns = new Turns(new CommandHandlers(this, jobs), tubes, table, this::reply);
    this.replies = new DurableReplies(sink, binlog, this::retireIfDone);
    this.sink = sink;
    this.compaction = new Compaction(binlog, jobs);
    RecoveredLog recovered = binlog.takeRecovered();
    jobs.restore(recovered, clock.nanos());
    if (!recovered.jobs().isEmpty()) {
      log.info("binlog: recovered {} jobs, next id {}", recovered.jobs().size(), jobs.nextJobId);
    }
  }

  // ---------------------------------------------------------------- entry points

  /** A new connection: it uses and watches {@code default}. */
  public Session open(Object connectionKey) {
    Session s = sessions.open(connectionKey, false);
    Tube t = tubes.getOrCreate(Tubes.DEFAULT);
    tubes.use(s, t);
    tubes.watch(s, t);
    return s;
  }

  /**
   * Runs one event-bus request as the next command of the session named {@code sessionKey},
   * which is created if it does not exist. Its replies reach the sink like a connection's.
   */
  public void call(Object sessionKey, String nodeId, BusStep step) {
    Session s = sessions.get(sessionKey);
    if (s == null) {
      if (!memory.admits(MemoryCap.SESSION_BYTES)) {
        // maxMemory: a new event-bus session would pass the cap; its request is refused, unrun.
        sink.deliver(sessions.detached(sessionKey), List.of(Reply.Word.OUT_OF_MEMORY), true);
        return;
      }
      s = sessions.open(sessionKey, true);
    }
    if (nodeId != null) {
      s.nodeId = nodeId;
    }
    s.queued.add(step);
    turns.schedule(s);
    runAndFlush();
  }

  /**
   * EVENTBUS.md: quit. A reserve the session waits in answers TIMED_OUT, what was queued behind it
   * is dropped, its jobs return to ready at once, and the sink is told the session ended once its
   * last replies are out (also when no such session exists).
   */
  public void endSession(Object sessionKey) {
    Session s = sessions.get(sessionKey);
    if (s == null) {
      s = sessions.detached(sessionKey);
    } else {
      s.queued.clear();
      if (s.isWaiting) {
        sessions.unpark(s);
        reply(s, Reply.Word.TIMED_OUT);
      }
      close(s);
    }
    s.isEnded = true;
    replies.markDirty(s);
    runAndFlush();
  }

  /** A cluster node left: every event-bus session whose requests came from it ends at once. */
  public void nodeLeft(String nodeId) {
    List<Object> gone = new ArrayList<>();
    for (Session s : sessions.all()) {
      if (s.isBusSession && nodeId.equals(s.nodeId)) {
        gone.add(s.key);
      }
    }
    gone.forEach(this::endSession);
  }

  /** Runs {@code commands} in order for {@code s}; replies reach the sink, perhaps later. */
  public void submit(Session s, List<Command> commands) {
    if (s.isClosed) {
      return;
    }
    s.queued.addAll(commands);
    turns.schedule(s);
    runAndFlush();
  }

  /** BEHAVIOURS.md 4: a put's line arrived ahead of its body; its id is taken in turn, now. */
  public void putLineArrived(Session s, boolean isTooBig) {
    if (s.isClosed) {
      return;
    }
    s.queued.add(new PutAnnouncement(isTooBig));
    turns.schedule(s);
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
    for (int j = s.reserved.first(); j != JobTable.NONE; j = s.reserved.first()) {
      jobs.returnToReady(j, now);
    }
    tubes.leaveAll(s);
    sessions.remove(s);
    runAndFlush();
  }

  /**
   * BEHAVIOURS.md 1: the client half-closed. A reserve it is blocked in answers TIMED_OUT, and
   * nothing queued behind it runs, since the connection closes next.
   */
  public void endInput(Session s) {
    if (s.isWaiting) {
      s.queued.clear();
      wake(s, Reply.Word.TIMED_OUT);
      runAndFlush();
    }
  }

  /** Fires everything due by now, bounded per call; returns when to call again. */
  public long tick() {
    long now = clock.nanos();
    int steps = 0;
    for (int j = jobs.nextDue(); j != JobTable.NONE && table.deadlineNanos(j) <= now && steps < MAX_STEPS_PER_TURN;
        j = jobs.nextDue(), steps++) {
      Session holder = table.reservedBy(j) == JobTable.NONE ? null : jobs.holderOf(j);
      jobs.expire(j, now);
      if (holder != null) {
        retireIfDone(holder);
      }
    }
    if (!tubes.endedPauses(now).isEmpty()) {
      processQueue(now);
    }
    for (Session s = sessions.dueWake(now); s != null && steps < MAX_STEPS_PER_TURN;
        s = sessions.dueWake(now), steps++) {
      if (s.isInSafetyMargin(table, now)) {
        wake(s, Reply.Word.DEADLINE_SOON);
      } else if (s.waitTimeoutNanos <= now) {
        wake(s, Reply.Word.TIMED_OUT);
      } else {
        sessions.scheduleWake(s, s.nextWakeNanos(table));
      }
    }
    runAndFlush();
    return steps >= MAX_STEPS_PER_TURN ? now : nextDeadlineNanos();
  }

  /** When {@link #tick()} has something to do next; Long.MAX_VALUE for never. */
  public long nextDeadlineNanos() {
    int j = jobs.nextDue();
    long next = j == JobTable.NONE ? Long.MAX_VALUE : table.deadlineNanos(j);
    next = Math.min(next, tubes.nextPauseEndNanos());
    return Math.min(next, sessions.nextWakeNanos());
  }

  /** True when a long command or compaction yielded and {@link #resumeYielded()} should run later. */
  public boolean hasYieldedWork() {
    return turns.hasYielded() || hasCompactionBacklog;
  }

  /** Continues commands that yielded the event loop. */
  public void resumeYielded() {
    turns.resumeYielded();
    runAndFlush();
  }

  /** The binlog made every record up to {@code sequence} durable: their replies may leave. */
  public void onDurable(long sequence) {
    replies.onDurable(sequence);
  }

  /** The binlog failed for good: waiting replies become INTERNAL_ERROR; changes are refused from now on. */
  public void onBinlogFailure(Throwable cause) {
    log.error("binlog failed: no change is acknowledged from now on", cause);
    replies.onBinlogFailure();
  }

  /** BEHAVIOURS.md 12: while draining, every put that would be stored answers DRAINING. */
  public void setDraining(boolean isDraining) {
    this.isDraining = isDraining;
  }

  public boolean isDraining() {
    return isDraining;
  }

  /** The session of a connection, or null once it is closed. */
  public Session session(Object connectionKey) {
    return sessions.get(connectionKey);
  }

  public long nowNanos() {
    return clock.nanos();
  }

  /**
   * The job store's memory to the byte: the off-heap pages of job records and bodies, the id index
   * and the heaps' arrays, slack included.
   */
  public long jobStoreBytes() {
    return table.reservedBytes();
  }

  /** The share of the job store's limit that maxMemory is unless configured. */
  public static final double DEFAULT_MAX_MEMORY_SHARE = 0.9;

  /**
   * maxMemory: puts (and new tubes and watches) answer OUT_OF_MEMORY once what the queue holds
   * would pass {@code maxBytes}; 0 means {@link #DEFAULT_MAX_MEMORY_SHARE} of the job store's limit.
   *
   * @throws IllegalArgumentException when {@code maxBytes} is more than the job store can hold
   */
  public void limitMemory(long maxBytes) {
    long storeLimit = table.memory().limitBytes();
    if (maxBytes > storeLimit) {
      throw new IllegalArgumentException("config: 'maxMemory' is " + maxBytes + " bytes, more than the job store "
          + "can hold here (" + storeLimit + " bytes, 3/4 of the JVM's direct memory); raise -XX:MaxDirectMemorySize"
          + " or lower maxMemory");
    }
    memory.limit(maxBytes > 0 ? maxBytes : (long) (storeLimit * DEFAULT_MAX_MEMORY_SHARE));
  }

  /** What maxMemory counts: job data as the store holds it, and each tube, watch and session. */
  public long memoryBytes() {
    return memory.usedBytes();
  }

  public long maxMemoryBytes() {
    return memory.maxBytes();
  }

  /** A connection over maxConnections was closed by its front. */
  public void connectionRejected() {
    sessions.rejectedConnections++;
  }

  /** Counts and counters for metrics and the admin page, in O(tubes). */
  public EngineSnapshot snapshot(long epochMillis) {
    return Snapshots.take(this, epochMillis);
  }

  /** Gives memory the job store no longer needs back to the system; call about once a second. */
  public void trimJobStore() {
    table.trim();
  }

  /** Frees the job store's off-heap memory; the engine must not be used again. */
  public void close() {
    jobs.close();
    tubes.close();
    table.close();
  }

  // ---------------------------------------------------------------- used by the command handlers

  void count(Counter c) {
    counters[c.ordinal()]++;
  }

  /** The running command stops here and continues on a later event-loop turn. */
  void requestYield() {
    turns.requestYield();
  }

  /** Hands ready jobs to blocked reservers: the best job among their tubes goes to the first waiter. */
  void processQueue(long now) {
    while (true) {
      int best = JobTable.NONE;
      for (Tube t : sessions.tubesWithWaiters()) {
        int j = t.ready.peek();
        if (j != JobTable.NONE && !t.isPaused(now) && (best == JobTable.NONE || table.isBefore(j, best))) {
          best = j;
        }
      }
      if (best == JobTable.NONE) {
        return;
      }
      Session s = jobs.tubeOf(best).waiting.iterator().next();
      sessions.unpark(s);
      reply(s, jobs.reserve(s, best, now));
      turns.wake(s);
    }
  }

  // ---------------------------------------------------------------- running commands

  /** protocol.txt: a job that becomes ready goes straight to a blocked reserver, if any. */
  private void readied(Tube t, long now) {
    if (!t.waiting.isEmpty() && !t.isPaused(now)) {
      processQueue(now);
    }
  }

  private void runAndFlush() {
    turns.runAll();
    hasCompactionBacklog = compaction.migrateSome(clock.nanos());
    replies.flush(jobs.lastSequence);
  }

  /** EVENTBUS.md: a session costs nothing once it holds no job and awaits nothing. */
  private void retireIfDone(Session s) {
    if (!s.isClosed && s.isDone()) {
      s.isClosed = true;
      sessions.remove(s);
    }
  }

  private void reply(Session s, Reply r) {
    replies.add(s, r);
  }

  private void wake(Session s, Reply r) {
    sessions.unpark(s);
    reply(s, r);
    turns.wake(s);
  }
}
