package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.bus.SessionKey;
import java.util.ArrayList;
import java.util.List;

/**
 * The engine's view of one client: used tube, watch list, reserved jobs, a reserve it may be
 * blocked in, the commands queued behind that reserve ({@link CommandQueue}), and replies not yet
 * delivered. Which front it came through, and what it stands for there, the engine does not know.
 *
 * @see <a href="{@docRoot}/../spec/BEHAVIOURS.html">BEHAVIOURS.md</a>
 */
final class Session {
  /** protocol.txt: the safety margin before a reserved job's deadline. */
  static final long SAFETY_MARGIN_NANOS = Clock.SECOND_NANOS;

  final SessionKey key;
  /** Counted in stats as a connection; otherwise it holds tubes only while a scoped command runs. */
  final boolean isConnection;
  /** This session's number in the job records (who holds a job); NONE for a detached session. */
  final int index;
  private final JobList reserved;
  /** The tube put, peek and kick act on; null for a session that uses none. */
  private Tube used;
  /** Watch list, in the reference's order (removal moves the last entry into the hole). */
  private final ArrayList<Tube> watched = new ArrayList<>(2);
  private boolean isProducer;
  private boolean isWorker;
  /** The id taken when a put's line arrived ahead of its body (BEHAVIOURS.md 4), or 0. */
  private long announcedPutId;
  /** A put's line over max-job-size arrived ahead of its body, and was counted then. */
  private boolean isTooBigAnnounced;

  private boolean isWaiting;
  /** How many times it has waited: tells its entries of this wait from those of an earlier one. */
  private long waitNumber;
  /** When a blocked reserve times out; Long.MAX_VALUE for plain reserve. */
  private long waitTimeoutNanos;
  /** When the engine must look at this waiting session again (timeout or DEADLINE_SOON margin). */
  long wakeNanos;
  int wakeHeapPosition = -1;

  /** Commands waiting their turn, each with the scope it runs in. */
  final CommandQueue commands = new CommandQueue();
  /**
   * The names of what the session used and watched before the scoped command that runs now: names,
   * since a tube nothing refers to meanwhile is gone and comes back new.
   */
  private String usedBeforeScope;
  private List<String> watchedBeforeScope;
  private boolean isInScope;

  /** Replies on their way out, kept by {@link DurableReplies}. */
  final Outbox outbox = new Outbox();
  private boolean isClosed;
  /** What its front has yet to receive of the bodies sent to it. */
  final FrontFlow flow;
  private boolean isThrottled;
  /** Every command is answered with OUT_OF_MEMORY: maxMemory refused this session at its opening. */
  private final boolean isRefused;

  Session(SessionKey key, boolean isConnection, int index, JobTable table, boolean isRefused, FrontFlow flow) {
    this.key = key;
    this.flow = flow;
    this.isConnection = isConnection;
    this.index = index;
    this.reserved = new JobList(table);
    this.isRefused = isRefused;
  }

  // ---------------------------------------------------------------- tubes (changed through Tubes)

  Tube used() {
    return used;
  }

  /** Makes {@code t} the used tube and returns the one it replaces. */
  Tube use(Tube t) {
    Tube old = used;
    used = t;
    return old;
  }

  List<Tube> watched() {
    return watched;
  }

  boolean isWatching(Tube t) {
    return watched.contains(t);
  }

  /** The position of the watched tube of that name, or -1. */
  int watchPosition(String tube) {
    int at = -1;
    for (int i = 0; i < watched.size(); i++) {
      if (watched.get(i).name.equals(tube)) {
        at = i;
      }
    }
    return at;
  }

  void addWatch(Tube t) {
    watched.add(t);
  }

  /** BEHAVIOURS.md 9: removes the entry at {@code at}, the last entry moving into the hole. */
  Tube removeWatchAt(int at) {
    Tube t = watched.get(at);
    Tube last = watched.remove(watched.size() - 1);
    if (last != t) {
      watched.set(at, last);
    }
    return t;
  }

  /** Empties the watch list and returns what it held. */
  List<Tube> clearWatches() {
    List<Tube> old = new ArrayList<>(watched);
    watched.clear();
    return old;
  }

  // ---------------------------------------------------------------- scope of the running command

  /** Remembers what the session uses and watches, before a scoped command changes it. */
  void enterScope() {
    isInScope = true;
    usedBeforeScope = used == null ? null : used.name;
    watchedBeforeScope = new ArrayList<>(watched.size());
    for (Tube t : watched) {
      watchedBeforeScope.add(t.name);
    }
  }

  boolean isInScope() {
    return isInScope;
  }

  String usedBeforeScope() {
    return usedBeforeScope;
  }

  List<String> watchedBeforeScope() {
    return watchedBeforeScope;
  }

  void leaveScope() {
    isInScope = false;
    usedBeforeScope = null;
    watchedBeforeScope = null;
  }

  // ---------------------------------------------------------------- jobs

  JobList reserved() {
    return reserved;
  }

  boolean holdsJobs() {
    return !reserved.isEmpty();
  }

  /** This session's reserved job with that id, or {@link JobTable#NONE}. */
  int reservedJob(JobTable table, long id) {
    int j = table.find(id);
    return j != JobTable.NONE && table.reservedBy(j) == index ? j : JobTable.NONE;
  }

  void markProducer() {
    isProducer = true;
  }

  void markWorker() {
    isWorker = true;
  }

  boolean isProducer() {
    return isProducer;
  }

  boolean isWorker() {
    return isWorker;
  }

  /** BEHAVIOURS.md 4: the id a put took when its line arrived. */
  void announcePut(long id) {
    announcedPutId = id;
  }

  /** The announced id, forgotten on the way, or 0 when none was announced. */
  long takeAnnouncedPut() {
    long id = announcedPutId;
    announcedPutId = 0;
    return id;
  }

  void announceTooBig() {
    isTooBigAnnounced = true;
  }

  boolean takeTooBigAnnounced() {
    boolean was = isTooBigAnnounced;
    isTooBigAnnounced = false;
    return was;
  }

  // ---------------------------------------------------------------- waiting in a reserve

  boolean isWaiting() {
    return isWaiting;
  }

  void park(long timeoutNanos) {
    isWaiting = true;
    waitNumber++;
    waitTimeoutNanos = timeoutNanos;
  }

  long waitNumber() {
    return waitNumber;
  }

  void unpark() {
    isWaiting = false;
  }

  boolean hasTimedOut(long nowNanos) {
    return waitTimeoutNanos <= nowNanos;
  }

  /** protocol.txt: inside the last second of a reserved job's TTR. */
  boolean isInSafetyMargin(JobTable table, long nowNanos) {
    long soonest = soonestDeadlineNanos(table);
    return soonest != Long.MAX_VALUE && nowNanos >= soonest - SAFETY_MARGIN_NANOS;
  }

  /** When a blocked reserve needs attention: its timeout, or when its safety margin begins. */
  long nextWakeNanos(JobTable table) {
    long soonest = soonestDeadlineNanos(table);
    long margin = soonest == Long.MAX_VALUE ? Long.MAX_VALUE : soonest - SAFETY_MARGIN_NANOS;
    return Math.min(waitTimeoutNanos, margin);
  }

  private long soonestDeadlineNanos(JobTable table) {
    long soonest = Long.MAX_VALUE;
    for (int j = reserved.first(); j != JobTable.NONE; j = reserved.after(j)) {
      soonest = Math.min(soonest, table.deadlineNanos(j));
    }
    return soonest;
  }

  // ---------------------------------------------------------------- flow to its front

  /** Waits, before its next command, for its front to receive bodies ({@link FrontFlow}). */
  boolean isThrottled() {
    return isThrottled;
  }

  void setThrottled(boolean isThrottled) {
    this.isThrottled = isThrottled;
  }

  /** True when every submitted command has been answered. */
  boolean isIdle() {
    return !isWaiting && commands.isEmpty();
  }

  // ---------------------------------------------------------------- life

  boolean isRefused() {
    return isRefused;
  }

  boolean isClosed() {
    return isClosed;
  }

  /** Closed: it runs nothing more, and owes its front an end notice. */
  void close() {
    isClosed = true;
    outbox.oweEndNotice();
  }
}
