package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.protocol.TubeSettings;
import io.github.vertxbeanstalkd.persistence.Binlog;
import io.github.vertxbeanstalkd.persistence.BinlogRecord;
import io.github.vertxbeanstalkd.persistence.FrameBuffer;
import io.github.vertxbeanstalkd.persistence.JobBases;
import io.github.vertxbeanstalkd.persistence.JobCounters;
import io.github.vertxbeanstalkd.persistence.JobFrame;
import io.github.vertxbeanstalkd.persistence.LogPosition;
import io.github.vertxbeanstalkd.persistence.Replay;
import io.github.vertxbeanstalkd.persistence.SnapshotBody;
import io.github.vertxbeanstalkd.persistence.SnapshotState;
import io.github.vertxbeanstalkd.protocol.JobBytes;
import io.github.vertxbeanstalkd.protocol.JobState;
import io.github.vertxbeanstalkd.protocol.Reply;
import io.github.vertxbeanstalkd.store.SlotHeap;

/**
 * Every job and every change of a job's state, one explicit step per method: store, ready,
 * reserve, unreserve, delay, bury, kick, expire, remove. Each change that must survive a restart
 * is appended to the {@link Binlog} here, and nowhere else. Changes a restart undoes anyway (a
 * reservation, its TTR, a touch) are not logged: reserved jobs come back ready.
 *
 * @see <a href="{@docRoot}/../spec/BEHAVIOURS.html">BEHAVIOURS.md</a>
 * @see <a href="{@docRoot}/../spec/REPLICATION.html">REPLICATION.md</a>
 */
final class JobTransitions {
  /** Told when a job becomes ready, so blocked reservers can be served at once. */
  interface ReadyListener {
    void readied(Tube tube, long nowNanos);
  }

  final JobTable table;
  /** Delayed jobs (until ready) and reserved jobs (until their TTR ends), soonest first. */
  private final SlotHeap deadlines;
  private final Tubes tubes;
  private final Sessions sessions;
  private final ReadyListener listener;
  private final Binlog binlog;
  private final Clock clock;
  private long nextJobId = 1;
  /**
   * Ids from {@link #nextJobId} up to here (exclusive) may be issued: a replicated primary's range
   * from the group's consensus store (REPLICATION.md: an id is never issued twice); unbounded otherwise.
   */
  private long idCeiling = Long.MAX_VALUE;
  private long totalJobs;
  private long jobTimeouts;
  /** The sequence of the latest record appended; replies wait until the log has made it durable. */
  private long lastSequence;
  private ChangeStream changes = ChangeStream.NONE;
  private final JobReplies replies;
  /** The tubes' settings: caps on puts, where dead letters go; logged here like every change. */
  final TubeRules rules = new TubeRules();
  /** Kicked and dead-lettered jobs' standing toward maxReserves. */
  final DeadLetterNotes notes = new DeadLetterNotes();

  JobTransitions(JobTable table, Tubes tubes, Sessions sessions, ReadyListener listener, Binlog binlog, Clock clock) {
    this.table = table;
    this.replies = new JobReplies(table);
    this.tubes = tubes;
    this.sessions = sessions;
    this.listener = listener;
    this.binlog = binlog;
    this.clock = clock;
    this.deadlines = new SlotHeap(table.memory()) {
      protected boolean less(int a, int b) { return table.isDueBefore(a, b); }
      protected int positionOf(int j) { return table.deadlineHeapPosition(j); }
      protected void setPosition(int j, int p) { table.setDeadlineHeapPosition(j, p); }
    };
  }

  /** The slot of the job with that id, or {@link JobTable#NONE}. */
  int get(long id) {
    return table.find(id);
  }

  Tube tubeOf(int j) {
    return tubes.at(table.tube(j));
  }

  /** The session a reserved job is reserved by. */
  Session holderOf(int j) {
    return sessions.at(table.reservedBy(j));
  }

  /** The reply that hands out, or shows, the job. */
  Reply.JobBody reply(int j, boolean isReserved) {
    return replies.of(j, tubeOf(j).name, isReserved);
  }

  long nextJobId() {
    return nextJobId;
  }

  long totalJobs() {
    return totalJobs;
  }

  long jobTimeouts() {
    return jobTimeouts;
  }

  long lastSequence() {
    return lastSequence;
  }

  /** Where the binlog's next record goes; null without a log on disk. */
  LogPosition logPosition() {
    return binlog.position();
  }

  /** BEHAVIOURS.md 4: ids go up by one for every put that passes its line checks; -1 when none may be issued now. */
  long takeId() {
    return nextJobId < idCeiling ? nextJobId++ : -1;
  }

  /** A replicated primary may issue ids from {@code from} (or on from where it is) up to {@code until}, exclusive. */
  void allowIds(long from, long until) {
    nextJobId = Math.max(nextJobId, from);
    idCeiling = until;
  }

  /** The job whose deadline (delay end or TTR end) comes first, or {@link JobTable#NONE}. */
  int nextDue() {
    return deadlines.peek();
  }

  /** The deadline heap's slots (delayed and reserved jobs of every tube), in no particular order. */
  int[] copyDeadlineSlots() {
    return deadlines.copySlots();
  }

  /** Frees the deadline heap's array. */
  void close() {
    deadlines.close();
  }

  /**
   * A new job. Throws {@link OutOfMemoryError}, with nothing stored or logged, when the job store
   * has no room for it.
   */
  void store(long id, Tube tube, JobBytes bytes, long now, int priority, int delaySeconds, int ttrSeconds) {
    int j = table.add(id, tube.index, bytes.length(), new PutBody(bytes), now, priority, delaySeconds, ttrSeconds);
    tube.countJob();
    tube.addBody(bytes.length());
    totalJobs++;
    if (delaySeconds != 0) {
      delay(j, now);
    } else {
      makeReady(j, now);
    }
    if (isLogged()) {
      // The front lent the body for this command only: the record, which the binlog's writer (and
      // a standby's stream) read later, gets bytes of its own.
      log(snapshot(j, now, SnapshotBody.of(bytes.toArray())));
    }
  }

  /** Compaction: writes a live job again, whole, so that older segments can go. */
  void migrate(int j, long now) {
    log(snapshot(j, now, SnapshotBody.of(table.body(j))));
    logNote(table.id(j));
  }

  /**
   * Replay, a job's snapshot: the job becomes what it says, new or replacing the one of that id (a
   * compaction's migration), without logging it again (BEHAVIOURS.md flags: -b).
   */
  void restoreSnapshot(BinlogRecord.JobSnapshot snap) {
    int j = table.find(snap.id());
    long base = JobBases.ABSENT;
    if (j != JobTable.NONE) {
      // Its tube keeps its place in list-tubes: the job comes back to it at once.
      base = table.logBase(j);
      unplace(j);
      tubeOf(j).removeBody(table.bodyLength(j));
      table.remove(j);
    }
    int placed = place(snap, clock.nanos(), clock.epochMillis(), j == JobTable.NONE);
    table.setLogBase(placed, base);
  }

  /**
   * Replay, a release, bury, kick or reserve of a job the log holds ({@link Replay#changed}), applied
   * where the job is stored, without copying its body; ignored for a job not held (superseded).
   */
  void restoreChange(long id, BinlogRecord change) {
    int j = table.find(id);
    if (j == JobTable.NONE) {
      return;
    }
    unplace(j);
    long now = clock.nanos();
    if (change instanceof BinlogRecord.Release rel) {
      table.setPriority(j, rel.priority());
      table.setDelaySeconds(j, rel.delaySeconds());
      setCounters(j, rel.counters());
      if (rel.delaySeconds() == 0) {
        makeReady(j, now);
      } else {
        placeDelayed(j, now, rel.readyAtEpochMillis(), clock.epochMillis());
      }
    } else if (change instanceof BinlogRecord.Bury b) {
      table.setPriority(j, b.priority());
      setCounters(j, b.counters());
      table.setState(j, JobState.BURIED);
      tubeOf(j).addBuried(j);
    } else if (change instanceof BinlogRecord.Kick k) {
      setCounters(j, k.counters());
      makeReady(j, now);
    } else if (change instanceof BinlogRecord.Reserve res) {
      setCounters(j, res.counters());
      makeReady(j, now);
    } else {
      throw new IllegalArgumentException("not a change of a job: " + change);
    }
  }

  /**
   * Replay, a delete: the job goes, uncounted, so that after a restart total-jobs counts the jobs
   * that came back, as when the log was read whole; ignored for a job not held.
   */
  void restoreDelete(long id) {
    int j = table.find(id);
    if (j != JobTable.NONE) {
      tubeOf(j).uncountJob();
      totalJobs--;
      drop(j);
    }
  }

  /** {@code tube} (or {@code "*"}) has these settings from now on, logged as the whole table. */
  void setTubeSettings(String tube, TubeSettings settings) {
    rules.set(tube, settings);
    if (isLogged()) {
      log(rules.record());
    }
  }

  /** Replay or a primary's record: the job's note, if the job is held; {@code frames} null in a replay. */
  void restoreNote(BinlogRecord.DeadLetterNote note, byte[] frames, int offset) {
    if (table.find(note.id()) != JobTable.NONE) {
      notes.put(note.id(), new DeadLetterNotes.Note(note.reservesBase(), note.deadLetteredFrom()));
    }
    if (frames != null) {
      log(note, frames, offset);
    }
  }

  /** Replay: the table in force is {@code table}, not logged again. */
  void restoreTubeSettings(BinlogRecord.TubeSettingsTable table) {
    rules.replaceAll(table.settings());
  }

  /**
   * A standby applies a primary's table (or drops its own before a copy, {@code frames} null): it
   * is in force at once and goes to this node's own log as it came.
   */
  void applyTubeSettings(BinlogRecord.TubeSettingsTable table, byte[] frames, int offset) {
    rules.replaceAll(table.settings());
    log(table, frames, offset);
  }

  /** Replay is over: ids go on above every id the log ever held. */
  void restored(long logNextJobId) {
    nextJobId = Math.max(nextJobId, logNextJobId);
  }

  /**
   * A standby applies a primary's record: the job becomes what {@code snap} says (replacing the one
   * of that id, if any), and the record goes to this node's own log as it came: its frame as the
   * primary sent it, {@code frames} at {@code offset} ({@link Binlog#appendFrame}).
   */
  void replace(BinlogRecord.JobSnapshot snap, BinlogRecord record, long now, byte[] frames, int offset) {
    int j = table.find(snap.id());
    // The log's account of where the job was stored goes with it to its new record.
    long base = j == JobTable.NONE ? JobBases.ABSENT : table.logBase(j);
    DeadLetterNotes.Note note = notes.of(snap.id());
    if (j != JobTable.NONE) {
      drop(j);
    }
    if (note != null) {
      // The same job, changed: its note stays until a note or a delete of the primary's says otherwise.
      notes.put(snap.id(), note);
    }
    table.setLogBase(place(snap, now, clock.epochMillis(), j == JobTable.NONE), base);
    log(record, frames, offset);
  }

  /**
   * A standby applies a job's snapshot read where it came ({@link JobFrame}): a job it does not hold
   * yet is placed straight from the frame's bytes, with no record made, and the frame goes to this
   * node's log as it came. False, with nothing done, when it holds that job (or streams changes
   * on, as a primary): the caller then applies the decoded record ({@link #replace}).
   *
   * @param tubeHint the tube of the job placed before, or null: a run of one tube looks it up once
   * @return the job's tube, or null when it was not placed
   */
  Tube placeNew(JobFrame f, Tube tubeHint, long now, long wallNow) {
    long id = f.id();
    if (changes != ChangeStream.NONE || table.find(id) != JobTable.NONE) {
      return null;
    }
    // A tube that went (its last job deleted) is another object, or none, at its index.
    Tube tube = tubeHint != null && f.isTube(tubeHint.name) && tubes.at(tubeHint.index) == tubeHint
        ? tubeHint : tubes.getOrCreate(f.tube());
    long createdNanos = now - Math.max(0, wallNow - f.createdEpochMillis()) * 1_000_000;
    int j = table.add(id, tube.index, f.data(), f.bodyOffset(), f.bodyLength(), createdNanos, f.priority(),
        f.delaySeconds(), f.ttrSeconds());
    table.setCounters(j, f.counter(0), f.counter(1), f.counter(2), f.counter(3), f.counter(4));
    tube.countJob();
    tube.addBody(f.bodyLength());
    totalJobs++;
    nextJobId = Math.max(nextJobId, id + 1);
    switch (f.state()) {
      case DELAYED -> placeDelayed(j, now, f.readyAtEpochMillis(), wallNow);
      case BURIED -> {
        table.setState(j, JobState.BURIED);
        tube.addBuried(j);
      }
      default -> makeReady(j, now);
    }
    // A new job: the log's account of it starts with this record (the table's is ABSENT until then).
    long sequence = binlog.appendJobFrame(f);
    if (sequence > lastSequence) {
      lastSequence = sequence;
    }
    return tube;
  }

  /** A standby applies a primary's delete: the job goes, unlogged but for the record itself. */
  void forgetLogged(long id, BinlogRecord record) {
    forgetLogged(id, record, null, 0);
  }

  /** {@link #forgetLogged}, with the record's frame as the primary sent it; frames may be null. */
  void forgetLogged(long id, BinlogRecord record, byte[] frames, int offset) {
    // Logged first: the log's account of the job is kept in its record.
    log(record, frames, offset);
    forget(id);
  }

  /** A standby applies a primary's high-water mark: ids continue above it after a promotion. */
  void raiseNextJobId(long floor, BinlogRecord record, byte[] frames, int offset) {
    nextJobId = Math.max(nextJobId, floor);
    log(record, frames, offset);
  }

  /** The frames a standby logged as they came go to the log's writer: its batch is applied. */
  void flushFrames() {
    binlog.flushFrames();
  }

  /** What the job is now, as a log snapshot (its body copied out of the store). */
  BinlogRecord.JobSnapshot snapshotOf(int j, long now) {
    return snapshot(j, now, SnapshotBody.of(table.body(j)));
  }

  /**
   * Frames the job as it is now, a log snapshot written straight from its record and its stored
   * body into {@code frames}, with no record object made: a copy slice, read in one engine turn.
   *
   * @param wallNow the wall clock at {@code now}, read once for the slice
   */
  void frameSnapshot(int j, long now, long wallNow, FrameBuffer frames) {
    JobState state = table.state(j);
    SnapshotState stored = switch (state) {
      case DELAYED -> SnapshotState.DELAYED;
      case BURIED -> SnapshotState.BURIED;
      default -> SnapshotState.READY;
    };
    long readyAt = state == JobState.DELAYED ? wallNow + (table.deadlineNanos(j) - now) / 1_000_000 : 0;
    frames.addJob(table.id(j), stored, table.priority(j), table.delaySeconds(j), table.ttrSeconds(j), readyAt,
        wallNow - (now - table.createdNanos(j)) / 1_000_000, table.reserves(j), table.timeouts(j),
        table.releases(j), table.buries(j), table.kicks(j), tubeOf(j).name, table.bodyLength(j),
        (target, at) -> table.copyBody(j, target, at));
  }

  /**
   * The job of that id goes from every structure without a log record (a standby's jobs are never
   * reserved by a live session); false when there was none.
   */
  private boolean forget(long id) {
    int j = table.find(id);
    if (j == JobTable.NONE) {
      return false;
    }
    drop(j);
    return true;
  }

  /** Puts a job the log describes into every structure, without logging it; a new one is counted. */
  private int place(BinlogRecord.JobSnapshot snap, long now, long wallNow, boolean isNew) {
    Tube tube = tubes.getOrCreate(snap.tube());
    long createdNanos = now - Math.max(0, wallNow - snap.createdEpochMillis()) * 1_000_000;
    SnapshotBody body = snap.body();
    int j = body instanceof SnapshotBody.Bytes bytes
        ? table.add(snap.id(), tube.index, bytes.array(), createdNanos, snap.priority(), snap.delaySeconds(),
            snap.ttrSeconds())
        : table.add(snap.id(), tube.index, body.length(), body::copyTo, createdNanos, snap.priority(),
            snap.delaySeconds(), snap.ttrSeconds());
    setCounters(j, snap.counters());
    tube.addBody(body.length());
    if (isNew) {
      tube.countJob();
      totalJobs++;
    }
    nextJobId = Math.max(nextJobId, snap.id() + 1);
    switch (snap.state()) {
      case DELAYED -> placeDelayed(j, now, snap.readyAtEpochMillis(), wallNow);
      case BURIED -> {
        table.setState(j, JobState.BURIED);
        tube.addBuried(j);
      }
      default -> makeReady(j, now);
    }
    return j;
  }

  /** A delayed job keeps its wall-clock deadline; one that passed while we were down is due now. */
  private void placeDelayed(int j, long now, long readyAtEpochMillis, long wallNow) {
    table.setState(j, JobState.DELAYED);
    table.setDeadlineNanos(j, now + Math.max(0, readyAtEpochMillis - wallNow) * 1_000_000);
    tubeOf(j).addDelayed(j);
    deadlines.add(j);
  }

  private void setCounters(int j, JobCounters c) {
    table.setCounters(j, c.reserves(), c.timeouts(), c.releases(), c.buries(), c.kicks());
  }

  /** A delayed job's time has come, or a reserved job's TTR ran out. */
  void expire(int j, long now) {
    if (table.state(j) == JobState.DELAYED) {
      unDelay(j);
    } else {
      // BEHAVIOURS.md 6: a TTR expiry counts a timeout and keeps the reserve count.
      table.countTimeout(j);
      jobTimeouts++;
      unreserve(j);
      if (isOutOfReserves(j)) {
        deadLetter(j, now);
        return;
      }
    }
    makeReady(j, now);
  }

  Reply reserve(Session s, int j, long now) {
    JobState state = table.state(j);
    switch (state) {
      case READY -> unReady(j);
      case DELAYED -> unDelay(j);
      case BURIED -> unBury(j);
      default -> throw new IllegalStateException("job " + table.id(j) + " is already reserved");
    }
    table.setState(j, JobState.RESERVED);
    table.setReservedBy(j, s.index);
    table.countReserve(j);
    if (state != JobState.READY && isLogged()) {
      // reserve-job took a delayed or buried job: after a restart it must come back ready.
      log(new BinlogRecord.Reserve(table.id(j), counters(j)));
    }
    table.setDeadlineNanos(j, now + table.ttrNanos(j));
    deadlines.add(j);
    s.reserved().addLast(j);
    tubeOf(j).addReserved();
    tubeOf(j).countReserve();
    return reply(j, true);
  }

  /** The holder released the job; false when its tube's maxReserves buried it instead. */
  boolean release(int j, int priority, int delaySeconds, long now) {
    table.setPriority(j, priority);
    table.setDelaySeconds(j, delaySeconds);
    table.countRelease(j);
    unreserve(j);
    if (isOutOfReserves(j)) {
      deadLetter(j, now);
      return false;
    }
    if (delaySeconds != 0) {
      delay(j, now);
    } else {
      makeReady(j, now);
    }
    if (isLogged()) {
      log(new BinlogRecord.Release(table.id(j), priority, delaySeconds, readyAtEpochMillis(j, now), counters(j)));
    }
    return true;
  }

  /** maxReserves: whether the job, back from a TTR timeout or a release, has had its reserves. */
  private boolean isOutOfReserves(int j) {
    if (rules.isEmpty()) {
      return false;
    }
    long limit = rules.effective(tubeOf(j).name).reserveLimit();
    return limit > 0 && Integer.toUnsignedLong(table.reserves(j)) - notes.reservesBase(table.id(j)) >= limit;
  }

  /**
   * The job, no longer reserved, is buried instead of made ready: in its tube's deadLetterTube if
   * set (moved there, counted there from now on), else in its own. Counted as a bury and per tube.
   */
  private void deadLetter(int j, long now) {
    long id = table.id(j);
    Tube from = tubeOf(j);
    String to = rules.effective(from.name).deadLetterTube();
    rules.countDeadLetter(from.name);
    table.setState(j, JobState.BURIED);
    table.countBury(j);
    notes.put(id, new DeadLetterNotes.Note(notes.reservesBase(id), from.name));
    if (to == null || to.equals(from.name)) {
      from.addBuried(j);
      if (isLogged()) {
        log(new BinlogRecord.Bury(id, table.priority(j), counters(j)));
      }
    } else {
      Tube target = tubes.getOrCreate(to);
      long bytes = table.bodyLength(j);
      from.removeBody(bytes);
      table.setTube(j, target.index);
      target.addBody(bytes);
      target.addBuried(j);
      tubes.deleteIfUnused(from);
      if (isLogged()) {
        // A Bury names no tube: the job is written whole, in its new tube, as a compaction would.
        log(snapshot(j, now, SnapshotBody.of(table.body(j))));
      }
    }
    logNote(id);
  }

  /** Logs the job's note, if it has one and changes are recorded. */
  private void logNote(long id) {
    if (isLogged()) {
      BinlogRecord.DeadLetterNote note = notes.record(id);
      if (note != null) {
        log(note);
      }
    }
  }

  /** The holder disconnected: back to ready, counting neither a timeout nor a release. */
  void returnToReady(int j, long now) {
    unreserve(j);
    makeReady(j, now);
  }

  void bury(int j, int priority) {
    table.setPriority(j, priority);
    unreserve(j);
    table.setState(j, JobState.BURIED);
    table.countBury(j);
    tubeOf(j).addBuried(j);
    if (isLogged()) {
      log(new BinlogRecord.Bury(table.id(j), priority, counters(j)));
    }
  }

  /** maxAge: a ready or delayed job too old is deleted, or buried in its tube (counted as a bury); logged as either. */
  void expireByAge(int j, boolean isDelete) {
    if (isDelete) {
      remove(j);
      return;
    }
    unplace(j);
    table.setState(j, JobState.BURIED);
    table.countBury(j);
    tubeOf(j).addBuried(j);
    if (isLogged()) {
      log(new BinlogRecord.Bury(table.id(j), table.priority(j), counters(j)));
    }
  }

  void touch(int j, long now) {
    table.setDeadlineNanos(j, now + table.ttrNanos(j));
    deadlines.update(j);
  }

  void kick(int j, long now) {
    if (table.state(j) == JobState.BURIED) {
      unBury(j);
    } else {
      unDelay(j);
    }
    table.countKick(j);
    makeReady(j, now);
    if (isLogged()) {
      log(new BinlogRecord.Kick(table.id(j), counters(j)));
    }
    if (!rules.isEmpty() || notes.of(table.id(j)) != null) {
      // maxReserves: a kicked job starts a fresh count; it is no longer a dead letter.
      notes.put(table.id(j), new DeadLetterNotes.Note(table.reserves(j), ""));
      logNote(table.id(j));
    }
  }

  void remove(int j) {
    if (isLogged()) {
      // Logged first: the log's account of the job is kept in its record.
      log(new BinlogRecord.Delete(table.id(j)));
    }
    drop(j);
  }

  /** The job goes from its state's structures and the table; its tube may go with it. */
  private void drop(int j) {
    unplace(j);
    Tube tube = tubeOf(j);
    tube.removeBody(table.bodyLength(j));
    notes.forget(table.id(j));
    table.remove(j);
    tubes.deleteIfUnused(tube);
  }

  /** The job leaves its state's structure (ready or delayed heap, buried list, its holder's list). */
  private void unplace(int j) {
    switch (table.state(j)) {
      case READY -> unReady(j);
      case RESERVED -> unreserve(j);
      case DELAYED -> unDelay(j);
      case BURIED -> unBury(j);
    }
  }

  /**
   * Whether changes are recorded: a binlog writes them, or a primary's standbys follow them. In
   * memory alone nothing would read a record, so none is made (nor its copy of a put's body).
   */
  private boolean isLogged() {
    return !binlog.isInMemory() || changes != ChangeStream.NONE;
  }

  private void log(BinlogRecord r) {
    log(r, null, 0);
  }

  private void log(BinlogRecord r, byte[] frames, int offset) {
    long sequence = frames == null ? binlog.append(r) : binlog.appendFrame(r, frames, offset);
    if (sequence > lastSequence) {
      lastSequence = sequence;
    }
    changes.appended(sequence, r);
  }

  /** From now on every logged change is also handed to {@code stream} (a primary's standbys). */
  void streamChangesTo(ChangeStream stream) {
    this.changes = stream;
  }

  private BinlogRecord.JobSnapshot snapshot(int j, long now, SnapshotBody body) {
    SnapshotState state = switch (table.state(j)) {
      case DELAYED -> SnapshotState.DELAYED;
      case BURIED -> SnapshotState.BURIED;
      default -> SnapshotState.READY;
    };
    long createdEpochMillis = clock.epochMillis() - (now - table.createdNanos(j)) / 1_000_000;
    return new BinlogRecord.JobSnapshot(table.id(j), tubeOf(j).name, state, table.priority(j), table.delaySeconds(j),
        readyAtEpochMillis(j, now), table.ttrSeconds(j), createdEpochMillis, counters(j), body);
  }

  /** A delayed job's deadline as wall-clock time, so that it survives a restart; 0 otherwise. */
  private long readyAtEpochMillis(int j, long now) {
    return table.state(j) == JobState.DELAYED ? clock.epochMillis() + (table.deadlineNanos(j) - now) / 1_000_000 : 0;
  }

  private JobCounters counters(int j) {
    return new JobCounters(table.reserves(j), table.timeouts(j), table.releases(j), table.buries(j), table.kicks(j));
  }

  private void makeReady(int j, long now) {
    table.setState(j, JobState.READY);
    Tube tube = tubeOf(j);
    tube.addReady(j, now);
    listener.readied(tube, now);
  }

  private void unReady(int j) {
    tubeOf(j).removeReady(j);
  }

  private void unreserve(int j) {
    deadlines.remove(j);
    holderOf(j).reserved().remove(j);
    table.setReservedBy(j, JobTable.NONE);
    tubeOf(j).removeReserved();
  }

  private void delay(int j, long now) {
    table.setState(j, JobState.DELAYED);
    table.setDeadlineNanos(j, now + table.delayNanos(j));
    tubeOf(j).addDelayed(j);
    deadlines.add(j);
  }

  private void unDelay(int j) {
    tubeOf(j).removeDelayed(j);
    deadlines.remove(j);
  }

  private void unBury(int j) {
    tubeOf(j).removeBuried(j);
  }
}
