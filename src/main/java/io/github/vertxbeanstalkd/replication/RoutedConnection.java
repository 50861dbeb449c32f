package io.github.vertxbeanstalkd.replication;

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
 * whose replies were lost. Replies reach the listener in the order the commands came, one each.
 */
final class RoutedConnection implements ConnectionSession {
  private static final Logger log = LoggerFactory.getLogger(RoutedConnection.class);
  private static final long SECOND_NANOS = 1_000_000_000L;

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
    private Command command;
    private State state;
    private long sentNanos;
    /** Sent before the end of input: the engine drops it if it waits behind a reserve then. */
    private boolean isBeforeEndOfInput;

    Entry(Command command, State state, long sentNanos) {
      this.command = command;
      this.state = state;
      this.sentNanos = sentNanos;
    }
  }

  private final Link.Opener host;
  private final HostClock clock;
  private final EngineClient.Listener listener;
  private final SessionKey key;
  private final ConnectionTubes tubes = new ConnectionTubes();
  private final ArrayDeque<Entry> awaiting = new ArrayDeque<>();
  private Link link;
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
    long now = 0;
    for (Command c : commands) {
      if (c instanceof Command.PutLine) {
        // No reply comes for it. Without a primary it is dropped: the put takes its id when its body arrives.
        continue;
      }
      if (c instanceof Command.Reserve && now == 0) {
        now = clock.nanos();
      }
      awaiting.add(new Entry(c, state, now));
    }
    if (link != null) {
      link.submit(commands);
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
    if (link != null) {
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
      answerLost(out);
      Entry e = awaiting.poll();
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
      link = null;
      lose();
    } else if (reply.isComplete()) {
      // The end of input answered a waiting reserve, and the engine dropped what it had queued
      // behind it. Only that: what was sent later may not have reached the engine yet (a client's
      // next batch can follow the replay of its tubes before the replay is answered).
      awaiting.removeIf(e -> e.isBeforeEndOfInput && (e.state == State.SENT || e.state == State.SILENT));
    }
    answerLost(out);
    deliver(out, reply.holdsJobs());
  }

  /** The group's primary is now {@code primary} (null: none known). */
  void rerouteTo(PrimaryRoute.Primary primary) {
    if (isClosed || (link != null && link.primary().equals(primary))) {
      return;
    }
    if (link != null) {
      link.close();
      link = null;
      lose();
      List<Reply> out = new ArrayList<>();
      answerLost(out);
      deliver(out, false);
    }
    if (primary != null) {
      attach(primary);
    }
  }

  /** No primary has been known for too long: the commands waiting for one answer INTERNAL_ERROR, except reserves. */
  void giveUpUnsent() {
    if (isClosed || link != null) {
      return;
    }
    for (Entry e : awaiting) {
      if (e.state == State.UNSENT && !(e.command instanceof Command.Reserve)) {
        e.state = State.LOST;
      }
    }
    List<Reply> out = new ArrayList<>();
    answerLost(out);
    deliver(out, false);
  }

  /** Opens a session on {@code primary}: the connection's tubes first, then what waits to be sent. */
  void attach(PrimaryRoute.Primary primary) {
    link = host.open(primary, this);
    List<Command> replay = tubes.replay();
    List<Command> send = new ArrayList<>(replay.size() + awaiting.size());
    send.addAll(replay);
    long now = clock.nanos();
    for (Entry e : awaiting) {
      if (e.state == State.UNSENT) {
        e.state = State.SENT;
        e.sentNanos = now;
        send.add(e.command);
      }
    }
    for (int i = replay.size() - 1; i >= 0; i--) {
      awaiting.addFirst(new Entry(replay.get(i), State.SILENT, now));
    }
    if (!send.isEmpty()) {
      link.submit(send);
    }
    if (isInputEnded) {
      endInputThere();
    }
  }

  /**
   * The session's primary is gone with every reply it owed: a reserve goes again (REPLICATION.md:
   * it goes on waiting; a job it may have been given is ready on the new primary), any other
   * command answers INTERNAL_ERROR, since it may or may not have run.
   */
  private void lose() {
    long now = clock.nanos();
    for (Iterator<Entry> it = awaiting.iterator(); it.hasNext(); ) {
      Entry e = it.next();
      if (e.state == State.SILENT) {
        it.remove();
      } else if (e.state == State.SENT) {
        if (e.command instanceof Command.Reserve reserve) {
          e.command = remainingOf(reserve, e.sentNanos, now);
          e.state = State.UNSENT;
        } else {
          e.state = State.LOST;
        }
      }
    }
  }

  /** The reserve with what is left of its timeout, rounded up to whole seconds: never shorter than asked. */
  static Command.Reserve remainingOf(Command.Reserve reserve, long sentNanos, long nowNanos) {
    if (!reserve.hasTimeout() || reserve.timeoutSeconds() == 0) {
      return reserve;
    }
    long leftNanos = reserve.timeoutSeconds() * SECOND_NANOS - (nowNanos - sentNanos);
    long leftSeconds = leftNanos <= 0 ? 0 : (leftNanos + SECOND_NANOS - 1) / SECOND_NANOS;
    return new Command.Reserve(leftSeconds, reserve.isWithTimeout());
  }

  private void answerLost(List<Reply> out) {
    while (!awaiting.isEmpty() && awaiting.peek().state == State.LOST) {
      awaiting.poll();
      out.add(Reply.Word.INTERNAL_ERROR);
    }
  }

  private void deliver(List<Reply> replies, boolean holdsJobs) {
    if (!replies.isEmpty()) {
      listener.onReply(new EngineReply(key, replies, awaiting.isEmpty(), holdsJobs, false));
    }
  }
}
