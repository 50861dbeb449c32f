package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.bus.EngineSnapshot;
import io.github.vertxbeanstalkd.bus.JobPage;
import io.github.vertxbeanstalkd.bus.JobQuery;
import io.github.vertxbeanstalkd.bus.Scope;
import io.github.vertxbeanstalkd.bus.SessionKey;
import io.github.vertxbeanstalkd.persistence.Binlog;
import io.github.vertxbeanstalkd.persistence.BinlogConfig;
import io.github.vertxbeanstalkd.persistence.RecoveredLog;
import io.github.vertxbeanstalkd.persistence.ReplayTarget;
import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.Reply;
import io.github.vertxbeanstalkd.store.DirectMemory;
import io.github.vertxbeanstalkd.protocol.TubeSettings;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns every tube, job and session, and runs each session's commands in order, one at a time.
 * Single-threaded by design: only its verticle calls it, so it needs no locks. Time comes from
 * one {@link Clock}; the caller keeps a timer armed for {@link #nextDeadlineNanos()} and calls
 * {@link #tick()}. What commands do is in {@link CommandHandlers}; every change of a job's state
 * goes through {@link JobTransitions}, which logs it to the {@link Binlog}.
 *
 * <p>Durability: a reply leaves only once every record appended before it is durable under the
 * fsync policy, so no client ever sees an effect (INSERTED, DELETED, a job handed out) that a crash
 * could take back. Replies wait per session, in order, which also paces pipelining clients.
 *
 * @see <a href="{@docRoot}/../spec/BEHAVIOURS.html">BEHAVIOURS.md</a>
 */
public final class QueueEngine {
  private static final Logger log = LoggerFactory.getLogger(QueueEngine.class);
  /** Work done per call before yielding the event loop (timer events, kicked jobs). */
  static final int MAX_STEPS_PER_TURN = 10_000;
  /** The share of the job store's limit that maxMemory is unless configured. */
  public static final double DEFAULT_MAX_MEMORY_SHARE = 0.9;

  private final Clock clock;
  private final JobTable table;
  private final Tubes tubes;
  private final Sessions sessions;
  private final JobTransitions jobs;
  private final MemoryCap memory;
  private Turns turns;
  /** {@code turns::wake}, made once: {@link #received} runs on every turn that sent bodies. */
  private final java.util.function.Consumer<Session> wakeTurn;
  private Waiters waiters;
  private final DurableReplies replies;
  private final Compaction compaction;
  private final StatsDocuments stats;
  private final LogShipping shipping;
  private final TubeExpiry expiry;
  private JobListing listing;
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
      DirectMemory directMemory) {
    this.clock = clock;
    this.table = new JobTable(directMemory);
    this.tubes = new Tubes(table);
    this.sessions = new Sessions(table);
    this.memory = new MemoryCap(table, tubes, sessions);
    this.replies = new DurableReplies(sink, binlog);
    this.jobs = new JobTransitions(table, tubes, sessions, (t, now) -> this.waiters.readied(t, now), binlog, clock);
    this.waiters = new Waiters(sessions, jobs, replies::add, s -> this.turns.wake(s), this::isFollowing);
    CommandCounts counts = new CommandCounts();
    this.stats = new StatsDocuments(info, clock.nanos(), maxJobSizeBytes, jobs, tubes, sessions, memory, counts,
        binlog, this::isDraining, clock);
    CommandHandlers handlers = new CommandHandlers(new CommandHandlers.Context(tubes, jobs, memory, counts, binlog,
        clock, waiters, stats, this::isDraining, () -> this.turns.requestYield(), this::closeSession,
        replies::acceptsChanges, this::isFollowing));
    this.turns = new Turns(handlers, tubes, memory, replies::add);
    this.wakeTurn = turns::wake;
    this.compaction = new Compaction(binlog, jobs);
    this.shipping = new LogShipping(jobs, replies, table, clock, this::runAndFlush);
    // A standby's jobs are its primary's: it expires nothing itself, it applies the primary's records.
    this.expiry = new TubeExpiry(jobs.rules, tubes, jobs, () -> replies.acceptsChanges() && !shipping.isFollowing()
        && binlog.health() == Binlog.Health.WRITING);
    this.listing = new JobListing(table, tubes, jobs, clock);
    if (binlog.keepsBasesOfItsOwn()) {
      binlog.keepBasesIn(table.logBases());
    }
  }

  /**
   * Where a replay of the binlog ({@link Binlog#replay}) puts the jobs it reads: straight into
   * this engine's store. Before the engine serves, on the thread that then hands it over.
   */
  public ReplayTarget replayTarget() {
    return new RestoredJobs(jobs);
  }

  /** The replay is over: ids go on above every id the log held. */
  public void restored(RecoveredLog found) {
    jobs.restored(found.nextJobId());
    if (table.size() > 0 || found.recordsRead() > 0) {
      log.info("binlog: recovered {} jobs from {} records, next id {}", table.size(), found.recordsRead(),
          jobs.nextJobId());
    }
  }

  // ---------------------------------------------------------------- sessions and their commands

  /** A new session: a connection uses and watches default; any other has no tube and is refused past maxMemory. */
  public void open(SessionKey key, boolean isConnection) {
    boolean isRefused = !isConnection && !memory.admitsHeld(MemoryCap.SESSION_BYTES);
    Session s = sessions.open(key, isConnection, isRefused);
    if (isConnection) {
      Tube t = tubes.getOrCreate(Tubes.DEFAULT);
      tubes.use(s, t);
      tubes.watch(s, t);
    }
  }

  /** Runs {@code commands} in order for the session, each in {@code scope}; replies reach the sink, perhaps later. */
  public void submit(SessionKey key, List<Command> commands, Scope scope) {
    Session s = sessions.get(key);
    if (s == null) {
      failed(key, commands.size());
      return;
    }
    if (s.isClosed()) {
      return;
    }
    s.commands.enqueue(commands, scope);
    turns.schedule(s);
    runAndFlush();
  }

  /** BEHAVIOURS.md 1: the client half-closed: a reserve it waits in answers TIMED_OUT, the rest is dropped. */
  public void endInput(SessionKey key) {
    Session s = sessions.get(key);
    if (s != null && s.isWaiting()) {
      s.commands.drop();
      waiters.wake(s, Reply.Word.TIMED_OUT);
      runAndFlush();
    }
  }

  /**
   * The session ends: a reserve it waits in and what was queued are dropped unanswered, its
   * reserved jobs return to ready (no timeout, no release counted), and its front gets an end
   * notice after its last replies (also for a session the engine does not know).
   */
  public void close(SessionKey key) {
    Session s = sessions.get(key);
    if (s == null) {
      replies.markDirty(sessions.detached(key));
    } else {
      closeSession(s);
    }
    runAndFlush();
  }

  /** A request of {@code key} failed inside the engine: its {@code commands} commands answer INTERNAL_ERROR. */
  public void failed(SessionKey key, int commands) {
    Session s = sessions.get(key);
    if (s == null) {
      s = sessions.detached(key);
    }
    for (int i = 0; i < commands; i++) {
      replies.add(s, Reply.Word.INTERNAL_ERROR);
    }
    replies.flush(jobs.lastSequence());
  }

  /** The session with that key, or null once it is closed. */
  Session session(SessionKey key) {
    return sessions.get(key);
  }

  // ---------------------------------------------------------------- time

  /** Fires everything due by now, bounded per call; returns when to call again. */
  public long tick() {
    long now = clock.nanos();
    int steps = 0;
    for (int j = jobs.nextDue(); j != JobTable.NONE && table.deadlineNanos(j) <= now && steps < MAX_STEPS_PER_TURN;
        j = jobs.nextDue(), steps++) {
      Session holder = table.reservedBy(j) == JobTable.NONE ? null : jobs.holderOf(j);
      jobs.expire(j, now);
      if (holder != null && !holder.holdsJobs() && holder.isIdle()) {
        // Its front hears that the session holds nothing any more (an event-bus session may end).
        holder.outbox.oweNotice();
        replies.markDirty(holder);
      }
    }
    if (!tubes.endedPauses(now).isEmpty()) {
      waiters.serve(now);
    }
    steps += waiters.wakeDue(now, MAX_STEPS_PER_TURN - steps);
    steps += expiry.sweep(now, MAX_STEPS_PER_TURN - steps);
    runAndFlush();
    return steps >= MAX_STEPS_PER_TURN ? now : nextDeadlineNanos();
  }

  /** When {@link #tick()} has something to do next; Long.MAX_VALUE for never. */
  public long nextDeadlineNanos() {
    int j = jobs.nextDue();
    long next = j == JobTable.NONE ? Long.MAX_VALUE : table.deadlineNanos(j);
    next = Math.min(next, tubes.nextPauseEndNanos());
    next = Math.min(next, expiry.nextSweepNanos());
    return Math.min(next, sessions.nextWakeNanos());
  }

  public long nowNanos() {
    return clock.nanos();
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

  // ---------------------------------------------------------------- the binlog

  /** The binlog made every record up to {@code sequence} durable: their replies may leave. */
  public void onDurable(long sequence) {
    replies.onDurable(sequence);
  }

  /** The binlog failed for good: waiting replies become INTERNAL_ERROR; changes are refused from now on. */
  public void onBinlogFailure(Throwable cause) {
    log.error("binlog failed: no change is acknowledged from now on", cause);
    replies.failWaiting();
  }

  // ---------------------------------------------------------------- replication

  /** The engine's side of log shipping: a primary's stream and acknowledgements, a standby's copy. */
  public LogShipping shipping() {
    return shipping;
  }

  /**
   * When (System.nanoTime) the replies this turn produced must have reached their clients: the end
   * of a replicated primary's lease, else {@link io.github.vertxbeanstalkd.bus.EngineReplies#NO_DEADLINE}.
   */
  public long answerBeforeNanos() {
    return replies.answerBeforeNanos();
  }

  /** A standby: its jobs are its primary's, changed only by the primary's records. */
  private boolean isFollowing() {
    return shipping.isFollowing();
  }

  // ---------------------------------------------------------------- tube settings

  /**
   * {@code tube} (or {@code "*"}) has these settings from now on (empty ones remove its entry),
   * logged and streamed to standbys; false on a node that may not change anything now (a standby,
   * a primary fenced off), where nothing changes.
   */
  public boolean setTubeSettings(String tube, TubeSettings settings) {
    if (!replies.acceptsChanges() || shipping.isFollowing()) {
      return false;
    }
    jobs.setTubeSettings(tube, settings);
    runAndFlush();
    return true;
  }

  /**
   * At start, after the replay: each tube the config file names gets the file's settings (the file
   * wins for what it names; changes made at run time to other tubes stay, as the log kept them). A
   * node of a replication group ({@code untilPromoted}) does so when it becomes primary: until then
   * its tubes are its primary's.
   */
  public void configureTubes(Map<String, TubeSettings> configured, boolean untilPromoted) {
    if (untilPromoted) {
      shipping.onPromotion(() -> configureTubes(configured, false));
      return;
    }
    for (Map.Entry<String, TubeSettings> e : configured.entrySet()) {
      if (!jobs.rules.own(e.getKey()).equals(e.getValue())) {
        jobs.setTubeSettings(e.getKey(), e.getValue());
      }
    }
  }

  /** Every tube's own settings, {@code "*"} included, in the order they were first set. */
  public Map<String, TubeSettings> tubeSettings() {
    return Map.copyOf(jobs.rules.table());
  }

  /** The tube job {@code id} was dead-lettered from (its maxReserves buried it), or an empty string. */
  public String deadLetteredFrom(long id) {
    DeadLetterNotes.Note note = jobs.notes.of(id);
    return note == null || jobs.get(id) == JobTable.NONE ? "" : note.deadLetteredFrom();
  }

  /**
   * A page of a tube's jobs in one state, in serving order, after bounded work: see
   * {@link JobListing}. Changes nothing.
   */
  public JobPage listJobs(JobQuery query) {
    return listing.page(query);
  }

  JobListing listing() {
    return listing;
  }

  /** Listings from now on keep walks within {@code bytes} of heap (tests; the default is an eighth of the heap). */
  void limitListingHeap(long bytes) {
    listing = new JobListing(table, tubes, jobs, clock, bytes);
  }

  /** {@code tube}'s settings in force: its own over those of {@code "*"}. */
  public TubeSettings effectiveTubeSettings(String tube) {
    return jobs.rules.effective(tube);
  }

  // ---------------------------------------------------------------- server-wide

  /** BEHAVIOURS.md 12: while draining, every put that would be stored answers DRAINING. */
  public void setDraining(boolean isDraining) {
    this.isDraining = isDraining;
  }

  public boolean isDraining() {
    return isDraining;
  }

  /** A connection over maxConnections was closed by its front. */
  public void connectionRefused() {
    sessions.countRefusedConnection();
  }

  /**
   * maxMemory: puts, new tubes, watches and sessions answer OUT_OF_MEMORY past {@code maxBytes}; 0
   * means {@link #DEFAULT_MAX_MEMORY_SHARE} of the store's limit. Throws IllegalArgumentException
   * when {@code maxBytes} is more than the job store can hold.
   */
  public void limitMemory(long maxBytes) {
    memory.limit(maxBytes, table.memory().limitBytes(), DEFAULT_MAX_MEMORY_SHARE);
  }

  /**
   * The heap's share for tubes, watch lists and sessions, priced as maxMemory prices them: past
   * {@code maxBytes}, {@code use} and {@code watch} of a new tube, a new watch and a new event-bus
   * session answer OUT_OF_MEMORY. Unlimited unless set.
   */
  public void limitHeldState(long maxBytes) {
    memory.limitHeld(maxBytes);
  }

  /**
   * Bodies copied into replies, and documents made, that one front has not yet said it received
   * ({@link #received}): past {@code bytes}, that front's sessions wait before a command that may
   * copy another body or make another document.
   * Unlimited unless set; see {@link FrontFlow}.
   */
  public void limitCopiesInTransit(long bytes) {
    sessions.limitFlows(bytes);
  }

  /** Whether the front at {@code address} should say now what it received; see {@link FrontFlow#isReceiptWanted}. */
  public boolean isReceiptWanted(String address) {
    return sessions.flow(address).isReceiptWanted();
  }

  /** The front at {@code front} received {@code copiedBytes} of the bodies and documents sent to it. */
  public void received(String front, long copiedBytes) {
    sessions.flow(front).received(copiedBytes, wakeTurn);
    runAndFlush();
  }

  /** The job store's memory to the byte: pages of records and bodies, the id index, the heaps. */
  public long jobStoreBytes() {
    return table.reservedBytes();
  }

  /** Counts for metrics and the admin page, in O(tubes), on the engine's clock. */
  public EngineSnapshot snapshot() {
    return stats.snapshot();
  }

  /** Gives memory the job store no longer needs back to the system; call about once a second. */
  public void trimJobStore() {
    table.trim();
    listing.dropIdle(clock.nanos());
  }

  /** Frees the job store's off-heap memory; never used again. */
  public void close() {
    jobs.close();
    tubes.close();
    table.close();
  }

  // ---------------------------------------------------------------- inside

  /** Ends {@code s}: its reserved jobs go back to ready, its tubes are let go, its front is told. */
  private void closeSession(Session s) {
    if (s.isClosed()) {
      return;
    }
    s.close();
    s.commands.drop();
    if (s.isWaiting()) {
      sessions.unpark(s);
    }
    long now = clock.nanos();
    for (int j = s.reserved().first(); j != JobTable.NONE; j = s.reserved().first()) {
      jobs.returnToReady(j, now);
    }
    if (s.isInScope()) {
      s.leaveScope();
    }
    tubes.leaveAll(s);
    sessions.remove(s);
    replies.markDirty(s);
  }

  private void runAndFlush() {
    turns.runAll();
    hasCompactionBacklog = compaction.migrateSome(clock.nanos());
    replies.flush(jobs.lastSequence());
  }
}
