package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.persistence.BinlogRecord;
import io.github.vertxbeanstalkd.persistence.FrameBuffer;
import io.github.vertxbeanstalkd.persistence.LogPosition;
import io.github.vertxbeanstalkd.persistence.ReceivedFrames;
import io.github.vertxbeanstalkd.persistence.Replay;

/**
 * A replicated engine's side of log shipping. A primary hands every logged change to a
 * {@link ChangeStream} and holds each reply until its {@link ReplicationGate} allows it; a
 * standby applies the primary's records, in order, to its jobs and its own binlog, so that a
 * promotion needs no replay. A record means here what it means in a replay ({@link Replay#changed}):
 * jobs reserved on the primary are ready here, as after a restart. Engine thread only.
 *
 * @see <a href="{@docRoot}/../spec/REPLICATION.html">REPLICATION.md</a>
 */
public final class LogShipping implements ShippingPort {
  /**
   * Slots one copy slice looks at, at most: a thinned-out store (a drained backlog's pages) does
   * not keep the engine for a whole walk in one turn.
   */
  static final int SLICE_MAX_SLOTS = 1 << 16;
  private final JobTransitions jobs;
  private final DurableReplies replies;
  private final JobTable table;
  private final Clock clock;
  private final Runnable afterWork;
  private ReplicationGate gate;
  private ChangeStream stream = ChangeStream.NONE;
  /** A standby: what it holds is the primary's, changed only by the primary's records. */
  private boolean isFollowing;
  /** Runs each time this node becomes primary, once its changes are streamed. */
  private Runnable onPromotion = () -> { };

  LogShipping(JobTransitions jobs, DurableReplies replies, JobTable table, Clock clock, Runnable afterWork) {
    this.jobs = jobs;
    this.replies = replies;
    this.table = table;
    this.clock = clock;
    this.afterWork = afterWork;
  }

  /**
   * A primary: every logged change also goes to {@code stream}, and from now on a reply waits until
   * {@link #acknowledge} and {@link #renewLease} allow it (nothing is acknowledged before the first of each).
   */
  @Override
  public void replicateTo(ChangeStream stream) {
    isFollowing = false;
    gate = new ReplicationGate(clock, jobs::lastSequence);
    // No id until the group's store gives a range (allowIds): none is issued twice, whatever the network does.
    jobs.allowIds(0, jobs.nextJobId());
    this.stream = stream;
    jobs.streamChangesTo(stream);
    replies.guardBy(gate);
    onPromotion.run();
  }

  /** {@code action} runs each time this node becomes primary, after its stream is set up. */
  void onPromotion(Runnable action) {
    this.onPromotion = action;
  }

  /**
   * No longer a primary: nothing is streamed; replies that waited answer INTERNAL_ERROR; and from now
   * on this node's jobs change only by the next primary's records, as a standby's.
   */
  @Override
  public void stopReplicating() {
    isFollowing = true;
    jobs.streamChangesTo(ChangeStream.NONE);
    stream = ChangeStream.NONE;
    if (gate != null) {
      gate.fence();
    }
    replies.failWaiting();
    gate = null;
    // A change or a reserve that reaches this node from now on (a client's command read late, after
    // a pause) is refused as a standby's is, so what it still answers (the admin page's reads) waits
    // for its own binlog alone.
    replies.guardBy(ReplicationGate.LOCAL);
  }

  @Override
  public int dropJobs(int cursor, int maxJobs) {
    if (cursor == 0 && !jobs.rules.isEmpty()) {
      // A copy starts: the settings go too; the primary's table, if it has one, comes with the copy.
      jobs.applyTubeSettings(new BinlogRecord.TubeSettingsTable(java.util.Map.of()), null, 0);
    }
    int dropped = 0;
    int j = table.nextSlot(cursor);
    for (; j != JobTable.NONE && dropped < maxJobs; j = table.nextSlot(j + 1)) {
      if (table.isLive(j)) {
        long id = table.id(j);
        jobs.forgetLogged(id, new BinlogRecord.Delete(id));
        dropped++;
      }
    }
    afterWork.run();
    return j;
  }

  @Override
  public void follow() {
    isFollowing = true;
    if (gate == null) {
      replies.guardBy(ReplicationGate.LOCAL);
    }
  }

  /** Whether this node is a standby, which takes changes from its primary only. */
  boolean isFollowing() {
    return isFollowing;
  }

  @Override
  public long localDurableSequence() {
    return replies.localDurableSequence();
  }

  /** Changes up to {@code sequence} are acknowledged (by minAcks standbys, or by the primary alone when allowed). */
  @Override
  public void acknowledge(long sequence) {
    if (gate != null) {
      gate.acknowledge(sequence);
      replies.onDurable(replies.durableSequence());
    }
  }

  /** The group's lock was just confirmed: the lease runs {@code leaseNanos} from now, on the engine's clock. */
  @Override
  public void renewLease(long confirmedAtNanos, long leaseNanos) {
    if (gate != null) {
      // How long ago the lock was confirmed, counting any pause since: the lease left is what remains.
      gate.renewLease(leaseNanos - (System.nanoTime() - confirmedAtNanos));
      replies.onDurable(replies.durableSequence());
    }
  }

  /** REPLICATION.md whenTooFewStandbys "refuse": changes that need room answer INTERNAL_ERROR while false. */
  @Override
  public void acceptChanges(boolean accepts) {
    if (gate != null) {
      gate.acceptChanges(accepts);
    }
  }

  /** What changes waited for will not come (the lock is lost, or too few standbys): their replies answer INTERNAL_ERROR. */
  @Override
  public void failUnacknowledged() {
    replies.failWaiting();
  }

  /** The binlog sequence of the latest change logged. */
  @Override
  public long lastSequence() {
    return jobs.lastSequence();
  }

  /** The id the next put takes. */
  @Override
  public long nextJobId() {
    return jobs.nextJobId();
  }

  @Override
  public void allowIds(long from, long until) {
    jobs.allowIds(from, until);
  }

  /**
   * A slice of a standby's copy: the jobs of the slots from {@code cursor} on as they are now. A
   * job changed after its slot was read reaches the standby as a change in the stream that follows
   * the slice; one put after the walk passed its slot, as the put itself; one changed or deleted
   * before its slot is read, by the slice, which replaces whatever the standby made of the stream's
   * records for it (a change of a job it does not hold is ignored, as in a replay).
   */
  @Override
  public void copySlice(String standby, long copy, int cursor, int maxBytes) {
    long now = clock.nanos();
    // Room for the slice and the frame that crosses its end, about: no array grown in steps.
    FrameBuffer frames = new FrameBuffer(Math.min(maxBytes, 4 << 20) + (8 << 10));
    // Jobs put and deleted before the copy are not in it, but their ids are taken: every slice
    // carries the high-water mark, so ids never go back after this standby is promoted.
    frames.add(new BinlogRecord.HighWater(jobs.nextJobId()));
    // Every slice carries the tubes' settings, if any: a copy is whole from its first slice on.
    int notJobs = 1;
    if (!jobs.rules.isEmpty()) {
      frames.add(jobs.rules.record());
      notJobs++;
    }
    int looked = 0;
    int j = table.nextSlot(cursor);
    long wallNow = clock.epochMillis();
    for (; j != JobTable.NONE && frames.length() < maxBytes && looked < SLICE_MAX_SLOTS; j = table.nextSlot(j + 1)) {
      looked++;
      if (table.isLive(j)) {
        // Framed at once, straight from the record and the store: no snapshot object, no body copy of its own.
        jobs.frameSnapshot(j, now, wallNow, frames);
        BinlogRecord.DeadLetterNote note = jobs.notes.record(table.id(j));
        if (note != null) {
          frames.add(note);
          notJobs++;
        }
      }
    }
    stream.copied(new CopySlice(standby, copy, jobs.lastSequence(), jobs.nextJobId(), frames.array(),
        frames.length(), frames.records() - notJobs, j));
  }

  /**
   * A slice of the jobs of these ids as they are now, for a standby that rewinds a diverged tail:
   * from {@code ids[cursor]} on, up to about {@code maxBytes}, in its place among the changes; an
   * id not held is framed as a delete (the job is gone in this history), and the slice's cursor is
   * an index into {@code ids}. The slice's job count is the jobs held.
   */
  @Override
  public void copyJobs(String standby, long copy, long[] ids, int cursor, int maxBytes) {
    long now = clock.nanos();
    long wallNow = clock.epochMillis();
    FrameBuffer frames = new FrameBuffer(Math.min(maxBytes, 4 << 20) + (8 << 10));
    frames.add(new BinlogRecord.HighWater(jobs.nextJobId()));
    int held = 0;
    int i = cursor;
    for (; i < ids.length && frames.length() < maxBytes; i++) {
      int j = jobs.get(ids[i]);
      if (j != JobTable.NONE) {
        jobs.frameSnapshot(j, now, wallNow, frames);
        held++;
        BinlogRecord.DeadLetterNote note = jobs.notes.record(ids[i]);
        if (note != null) {
          frames.add(note);
        }
      } else {
        frames.add(new BinlogRecord.Delete(ids[i]));
      }
    }
    stream.copied(new CopySlice(standby, copy, jobs.lastSequence(), jobs.nextJobId(), frames.array(),
        frames.length(), held, i < ids.length ? i : -1));
  }

  @Override
  public LogPosition logPosition() {
    return jobs.logPosition();
  }

  /**
   * A standby applies a primary's records, in order, to its jobs and to its own binlog, where each
   * frame goes as it came. A job it does not hold yet (every job of a copy but those a change put
   * first) goes into the store and its tube's structures straight from its frame: no record, body
   * or counters object for it, and no lookups but the id's and, once a run, the tube's.
   */
  @Override
  public void apply(ReceivedFrames received) {
    long now = clock.nanos();
    long wallNow = clock.epochMillis();
    byte[] frames = received.data();
    // No client waits on a standby's engine: the job pages it makes now are made present at once.
    table.memory().populateNewBlocks(true);
    try {
      applyFrames(received, now, wallNow, frames);
    } finally {
      table.memory().populateNewBlocks(false);
    }
    jobs.flushFrames();
    afterWork.run();
  }

  private void applyFrames(ReceivedFrames received, long now, long wallNow, byte[] frames) {
    Tube tube = null;
    for (int i = 0; i < received.size(); i++) {
      if (received.isJob(i)) {
        // A job this node does not hold (a copy's, a put's) is placed from its frame, no record made.
        Tube placed = jobs.placeNew(received.job(i), tube, now, wallNow);
        if (placed != null) {
          tube = placed;
          continue;
        }
      }
      BinlogRecord r = received.record(i);
      int at = received.frameOffset(i);
      if (r instanceof BinlogRecord.HighWater h) {
        jobs.raiseNextJobId(h.nextJobId(), r, frames, at);
      } else if (r instanceof BinlogRecord.TubeSettingsTable t) {
        jobs.applyTubeSettings(t, frames, at);
      } else if (r instanceof BinlogRecord.DeadLetterNote n) {
        jobs.restoreNote(n, frames, at);
      } else if (r instanceof BinlogRecord.JobSnapshot snap) {
        jobs.replace(snap, r, now, frames, at);
      } else if (r instanceof BinlogRecord.Delete d) {
        jobs.forgetLogged(d.id(), r, frames, at);
      } else {
        int j = jobs.get(Replay.idOf(r));
        if (j == JobTable.NONE) {
          // A change of a job this copy does not hold was superseded, as in a replay.
          jobs.raiseNextJobId(Replay.idOf(r) + 1, r, frames, at);
        } else {
          jobs.replace(Replay.changed(jobs.snapshotOf(j, now), r), r, now, frames, at);
        }
      }
    }
  }
}
