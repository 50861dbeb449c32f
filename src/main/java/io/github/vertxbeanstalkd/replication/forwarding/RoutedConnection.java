package io.github.vertxbeanstalkd.replication.forwarding;

import io.github.vertxbeanstalkd.bus.ConnectionSession;
import io.github.vertxbeanstalkd.bus.EngineClient;
import io.github.vertxbeanstalkd.bus.EngineReply;
import io.github.vertxbeanstalkd.bus.SessionKey;
import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.Reply;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One TCP connection of a replicated node, whose session runs on whichever node is the primary
 * (REPLICATION.md, "Every node serves the protocol"). It remembers every command until its reply,
 * and the connection's used tube and watch list; when the primary changes, it opens a session on
 * the new one, gives it the same tubes before anything else, sends again the reserves that were
 * waiting (with what is left of their timeouts) and answers INTERNAL_ERROR for the other commands
 * whose replies were lost. While no primary has it, a reserve-with-timeout answers TIMED_OUT at its
 * deadline, as the primary would have. Replies reach the listener in the order the commands came,
 * one each.
 *
 * @see <a href="{@docRoot}/../spec/BEHAVIOURS.html">BEHAVIOURS.md</a>
 * @see <a href="{@docRoot}/../spec/REPLICATION.html">REPLICATION.md</a>
 */
final class RoutedConnection implements ConnectionSession {
  private static final Logger log = LoggerFactory.getLogger(RoutedConnection.class);
  private static final long SECOND_NANOS = 1_000_000_000L;
  /** The start of a reserve held back by a waiting reserve before it. */
  private static final long NOT_STARTED = Long.MIN_VALUE;

  /** Where a command stands. */
  private enum State {
    /** Sent to the session to give it the connection's tubes: its reply is not the client's. */
    SILENT,
    SENT,
    /** To be sent once a primary is known. */
    UNSENT,
    /** Its reply was lost with a primary: it answers INTERNAL_ERROR when its turn comes. */
    LOST
  }

  private static final class Entry {
    /** As the client sent it: a reserve sent again goes with what is left of its timeout. */
    private final Command command;
    private State state;
    /**
     * For a reserve, when its timeout started: when it came, or, if a reserve waiting before it held
     * it back ({@link #NOT_STARTED} until then), when that one was answered.
     */
    private long startNanos;
    /** Sent before the end of input: the engine drops it if it waits behind a reserve then. */
    private boolean isBeforeEndOfInput;

    Entry(Command command, State state) {
      this.command = command;
      this.state = state;
    }
  }

  private final Link.Opener host;
  private final HostClock clock;
  private final EngineClient.Listener listener;
  private final SessionKey key;
  private final ConnectionTubes tubes = new ConnectionTubes();
  private final ArrayDeque<Entry> awaiting = new ArrayDeque<>();
  private Link link;
  /** The entries of {@link #awaiting} sent to the link's session whose replies have not come: SENT and SILENT. */
  private int sentCount;
  /** The reserves in {@link #awaiting} that wait for a job: each holds back the ones behind it. */
  private int waitingReserves;
  /** The unsent reserve at the head whose deadline a timer is armed for, or null. */
  private Entry timedReserve;
  private long timedReserveTimer;
  private boolean isInputEnded;
  private boolean isClosed;

  RoutedConnection(Link.Opener host, HostClock clock, EngineClient.Listener listener, SessionKey key) {
    this.host = host;
    this.clock = clock;
    this.listener = listener;
    this.key = key;
  }

  SessionKey key() {
    return key;
  }

  @Override
  public void submit(List<Command> commands) {
    if (isClosed) {
      return;
    }
    State state = link == null ? State.UNSENT : State.SENT;
    int added = 0;
    for (Command c : commands) {
      if (c instanceof Command.PutLine) {
        // No reply comes for it. Without a primary it is dropped: the put takes its id when its body arrives.
        continue;
      }
      Entry e = new Entry(c, state);
      if (c instanceof Command.Reserve reserve) {
        // As beanstalkd, which reads a reserve's timeout only once the reserve before it is answered.
        e.startNanos = waitingReserves > 0 ? NOT_STARTED : clock.nanos();
        if (waits(reserve)) {
          waitingReserves++;
        }
      }
      awaiting.add(e);
      added++;
    }
    if (link != null) {
      countSent(added);
      link.submit(commands);
    } else {
      answerWithoutPrimary();
    }
  }

  @Override
  public void endInput() {
    if (isClosed || isInputEnded) {
      return;
    }
    isInputEnded = true;
    if (link != null) {
      endInputThere();
    }
  }

  private void endInputThere() {
    for (Entry e : awaiting) {
      e.isBeforeEndOfInput = e.state == State.SENT || e.state == State.SILENT;
    }
    link.endInput();
  }

  @Override
  public void close() {
    if (isClosed) {
      return;
    }
    isClosed = true;
    awaiting.clear();
    waitingReserves = 0;
    stopTimer();
    if (link != null) {
      countSent(-sentCount);
      link.close();
      link = null;
    }
    host.closed(this);
  }

  /** Whether the connection has no session now, though it is open. */
  boolean isDetached() {
    return !isClosed && link == null;
  }

  /** The replies of {@code from}'s session; those of a session left behind are not the client's any more. */
  void onReply(Link from, EngineReply reply) {
    if (from != link || isClosed) {
      return;
    }
    List<Reply> out = new ArrayList<>(reply.replies().size());
    for (Reply r : reply.replies()) {
      answerHead(out);
      Entry e = pollHead();
      if (e == null) {
        log.error("forwarding: a reply {} for no command of connection {}", r, key);
        break;
      }
      if (e.state == State.SILENT) {
        if (!ConnectionTubes.succeeded(r)) {
          log.warn("forwarding: giving connection {} its tubes again on the primary of term {}: {} answered {}",
              key, link.primary().term(), e.command, r);
        }
        continue;
      }
      tubes.heard(e.command, r);
      out.add(r);
    }
    if (reply.hasEnded()) {
      // The primary ended the session (it stepped down): what it had is lost, as in a failover; a
      // new session opens on the next primary, or on this one again a moment later.
      lose();
    } else if (reply.isComplete()) {
      // The end of input answered a waiting reserve, and the engine dropped what it had queued
      // behind it. Only that: what was sent later may not have reached the engine yet (a client's
      // next batch can follow the replay of its tubes before the replay is answered).
      int before = awaiting.size();
      awaiting.removeIf(e -> e.isBeforeEndOfInput && isSent(e));
      countSent(awaiting.size() - before);
      waitingReserves = (int) awaiting.stream().filter(e -> e.command instanceof Command.Reserve r && waits(r)).count();
      startReserves();
    }
    answerHead(out);
    deliver(out, reply.holdsJobs());
    if (link == null) {
      timeHead();
    }
  }

  /** The group's primary is now {@code primary} (null: none known). */
  void rerouteTo(PrimaryRoute.Primary primary) {
    if (isClosed || (link != null && link.primary().equals(primary))) {
      return;
    }
    if (link != null) {
      link.close();
      lose();
      List<Reply> out = new ArrayList<>();
      answerHead(out);
      deliver(out, false);
    }
    if (primary != null) {
      attach(primary);
    } else {
      timeHead();
    }
  }

  /**
   * No primary has been known for too long: the commands waiting for one answer INTERNAL_ERROR,
   * except reserves, which wait on until their deadlines.
   */
  void giveUpUnsent() {
    if (isClosed || link != null) {
      return;
    }
    for (Entry e : awaiting) {
      if (e.state == State.UNSENT && !(e.command instanceof Command.Reserve)) {
        e.state = State.LOST;
      }
    }
    answerWithoutPrimary();
  }

  /** Opens a session on {@code primary}: the connection's tubes first, then what waits to be sent. */
  void attach(PrimaryRoute.Primary primary) {
    stopTimer();
    link = host.open(primary, this);
    List<Command> replay = tubes.replay();
    List<Command> send = new ArrayList<>(replay.size() + awaiting.size());
    send.addAll(replay);
    long now = clock.nanos();
    for (Entry e : awaiting) {
      if (e.state == State.UNSENT) {
        e.state = State.SENT;
        send.add(e.command instanceof Command.Reserve reserve && e.startNanos != NOT_STARTED
            ? remainingOf(reserve, e.startNanos, now) : e.command);
      }
    }
    for (int i = replay.size() - 1; i >= 0; i--) {
      awaiting.addFirst(new Entry(replay.get(i), State.SILENT));
    }
    countSent(send.size());
    if (!send.isEmpty()) {
      link.submit(send);
    }
    if (isInputEnded) {
      endInputThere();
    }
  }

  /**
   * The session's primary is gone with every reply it owed, and the connection lets go of its link:
   * a reserve goes again (REPLICATION.md: it goes on waiting; a job it may have been given is ready
   * on the new primary), any other command answers INTERNAL_ERROR, since it may or may not have run.
   */
  private void lose() {
    countSent(-sentCount);
    link = null;
    for (Iterator<Entry> it = awaiting.iterator(); it.hasNext(); ) {
      Entry e = it.next();
      if (e.state == State.SILENT) {
        it.remove();
      } else if (e.state == State.SENT) {
        e.state = e.command instanceof Command.Reserve ? State.UNSENT : State.LOST;
      }
    }
  }

  /**
   * The reserve with what is left of its timeout since {@code startNanos}, rounded up to whole
   * seconds: never shorter than asked.
   */
  static Command.Reserve remainingOf(Command.Reserve reserve, long startNanos, long nowNanos) {
    if (!reserve.hasTimeout() || reserve.timeoutSeconds() == 0) {
      return reserve;
    }
    long leftNanos = leftNanos(reserve, startNanos, nowNanos);
    long leftSeconds = leftNanos <= 0 ? 0 : (leftNanos + SECOND_NANOS - 1) / SECOND_NANOS;
    return new Command.Reserve(leftSeconds, reserve.isWithTimeout());
  }

  private static long leftNanos(Command.Reserve reserve, long startNanos, long nowNanos) {
    if (!reserve.hasTimeout()) {
      return Long.MAX_VALUE;
    }
    long timeoutNanos = reserve.timeoutSeconds() * SECOND_NANOS;
    return startNanos == NOT_STARTED ? timeoutNanos : timeoutNanos - (nowNanos - startNanos);
  }

  /** Whether {@code e} went to the link's session and its reply has not come. */
  private static boolean isSent(Entry e) {
    return e.state == State.SENT || e.state == State.SILENT;
  }

  /** {@code delta} more entries wait for the link's replies (fewer when negative); the link hears it. */
  private void countSent(int delta) {
    if (delta != 0) {
      sentCount += delta;
      link.awaitingReplies(delta);
    }
  }

  /** Whether a reserve waits for a job when none is ready (and so holds back the commands behind it). */
  private static boolean waits(Command.Reserve reserve) {
    return reserve.timeoutSeconds() != 0;
  }

  /** Answers what comes first and needs no primary: lost commands, and unsent reserves past their deadlines. */
  private void answerHead(List<Reply> out) {
    while (!awaiting.isEmpty()) {
      Entry e = awaiting.peek();
      if (e.state == State.LOST) {
        out.add(Reply.Word.INTERNAL_ERROR);
      } else if (e.state == State.UNSENT && e.command instanceof Command.Reserve reserve
          && leftNanos(reserve, e.startNanos, clock.nanos()) <= 0) {
        // BEHAVIOURS.md 5: TIMED_OUT at the deadline. Unsent, it has no session, so the connection
        // holds no job (no DEADLINE_SOON is due) and no job can be given.
        out.add(Reply.Word.TIMED_OUT);
      } else {
        return;
      }
      pollHead();
    }
  }

  /** Takes the command at the head, answered; a waiting reserve answered lets the next reserves' timeouts start. */
  private Entry pollHead() {
    Entry e = awaiting.poll();
    if (e != null && isSent(e)) {
      countSent(-1);
    }
    if (e != null && e.command instanceof Command.Reserve reserve && waits(reserve)) {
      waitingReserves--;
      startReserves();
    }
    return e;
  }

  /** Starts the timeouts of the reserves no waiting reserve holds back any more. */
  private void startReserves() {
    if (awaiting.isEmpty()) {
      return;
    }
    long now = clock.nanos();
    for (Entry e : awaiting) {
      if (e.command instanceof Command.Reserve reserve) {
        if (e.startNanos == NOT_STARTED) {
          e.startNanos = now;
        }
        if (waits(reserve)) {
          return;
        }
      }
    }
  }

  private void answerWithoutPrimary() {
    List<Reply> out = new ArrayList<>();
    answerHead(out);
    deliver(out, false);
    timeHead();
  }

  /** Without a primary, a timer waits for the deadline of an unsent reserve at the head: its reply comes next. */
  private void timeHead() {
    Entry head = awaiting.peek();
    if (isClosed || link != null || head == null || head.state != State.UNSENT
        || !(head.command instanceof Command.Reserve reserve) || !reserve.hasTimeout()) {
      stopTimer();
      return;
    }
    if (head != timedReserve) {
      stopTimer();
      timedReserve = head;
      long leftNanos = leftNanos(reserve, head.startNanos, clock.nanos());
      timedReserveTimer = clock.setTimer(Math.max(1, leftNanos), this::onDeadline);
    }
  }

  private void onDeadline() {
    timedReserve = null;
    if (!isClosed && link == null) {
      answerWithoutPrimary();
    }
  }

  private void stopTimer() {
    if (timedReserve != null) {
      timedReserve = null;
      clock.cancelTimer(timedReserveTimer);
    }
  }

  private void deliver(List<Reply> replies, boolean holdsJobs) {
    if (!replies.isEmpty()) {
      listener.onReply(new EngineReply(key, replies, awaiting.isEmpty(), holdsJobs, false));
    }
  }
}
