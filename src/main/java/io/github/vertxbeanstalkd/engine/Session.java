package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.protocol.Reply;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The engine's view of one client, a TCP connection or an event-bus session: used tube, watch
 * list, reserved jobs, a reserve it may be blocked in, the commands queued behind that reserve,
 * and replies not yet delivered.
 */
public final class Session {
  /** protocol.txt: the safety margin before a reserved job's deadline. */
  static final long SAFETY_MARGIN_NANOS = Clock.SECOND_NANOS;

  final Object key;
  /** An event-bus session: created by its first request, gone once it holds and awaits nothing. */
  final boolean isBusSession;
  /** The cluster node an event-bus session's requests came from, or null. */
  String nodeId;
  /** The tube put, peek and kick act on; null for an event-bus session between its commands. */
  Tube used;
  /** Watch list, in the reference's order (removal moves the last entry into the hole). */
  final ArrayList<Tube> watched = new ArrayList<>(2);

  boolean isWatching(String tube) {
    for (Tube t : watched) {
      if (t.name.equals(tube)) {
        return true;
      }
    }
    return false;
  }
  final JobList reserved;
  /** This session's number in the job records (who holds a job); NONE for a detached session. */
  int index = JobTable.NONE;
  boolean isProducer;
  boolean isWorker;
  /** The id taken when a put's line arrived ahead of its body (BEHAVIOURS.md 4), or 0. */
  long announcedPutId;
  /** A put's line over max-job-size arrived ahead of its body, and was counted then. */
  boolean isTooBigAnnounced;

  /** Set while blocked in a reserve. */
  boolean isWaiting;
  /** When a blocked reserve times out; Long.MAX_VALUE for plain reserve. */
  long waitTimeoutNanos;
  /** When the engine must look at this waiting session again (timeout or DEADLINE_SOON margin). */
  long wakeNanos;
  int wakeHeapPosition = -1;

  /** Commands, {@link BusStep}s, {@link PutAnnouncement}s or a {@link KickProgress}, waiting their turn. */
  final ArrayDeque<Object> queued = new ArrayDeque<>();
  List<Reply> outbox = new ArrayList<>(4);
  boolean isDirty;
  boolean isClosed;
  /** An event-bus session that was ended: its last replies go out with an end notice. */
  boolean isEnded;
  /** Set while this session's replies wait for the binlog to reach {@link #awaitedSequence}. */
  boolean isAwaitingDurable;
  long awaitedSequence;

  Session(Object key, boolean isBusSession, JobTable table) {
    this.key = key;
    this.isBusSession = isBusSession;
    this.reserved = new JobList(table);
  }

  /** The transport's immutable name for the connection; it also routes the replies back. */
  public Object key() {
    return key;
  }

  /** True when every submitted command has been answered. */
  public boolean isIdle() {
    return !isWaiting && queued.isEmpty();
  }

  /** An event-bus session that may be forgotten: nothing reserved, queued, waiting or undelivered. */
  boolean isDone() {
    return isBusSession && isIdle() && reserved.isEmpty() && outbox.isEmpty() && !isAwaitingDurable;
  }

  /** This session's reserved job with that id, or {@link JobTable#NONE}. */
  int reservedJob(JobTable table, long id) {
    int j = table.find(id);
    return j != JobTable.NONE && table.reservedBy(j) == index ? j : JobTable.NONE;
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

  /** The earliest TTR deadline among this session's reserved jobs, or Long.MAX_VALUE. */
  long soonestDeadlineNanos(JobTable table) {
    long soonest = Long.MAX_VALUE;
    for (int j = reserved.first(); j != JobTable.NONE; j = reserved.after(j)) {
      soonest = Math.min(soonest, table.deadlineNanos(j));
    }
    return soonest;
  }
}
