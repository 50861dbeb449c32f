package io.github.vertxbeanstalkd.protocol;

import java.util.Set;

/**
 * A parsed client command as an immutable value. Numbers that the protocol defines as unsigned
 * 32-bit are kept in an {@code int} and read with {@link Integer#toUnsignedLong}; job ids are
 * unsigned 64-bit in a {@code long}.
 *
 * @see <a href="{@docRoot}/../spec/BEHAVIOURS.html">BEHAVIOURS.md</a>
 */
public sealed interface Command extends ParsedLine {

  /** Hands the command to the matching method of {@code handler}. */
  <C, R> R dispatch(Handler<C, R> handler, C context);

  /** Whether {@code command} may be answered with a copy of a job's body (RESERVED or FOUND). */
  static boolean isAnsweredWithBody(Command command) {
    return command instanceof Reserve || command instanceof ReserveJob
        || command instanceof Peek || command instanceof PeekState;
  }

  /**
   * Whether {@code command} is answered with a YAML document (stats, stats-tube, stats-job,
   * list-tubes, list-tubes-watched): a few bytes in, kilobytes of objects out.
   */
  static boolean isAnsweredWithDocument(Command command) {
    return command instanceof Stats || command instanceof StatsTube || command instanceof StatsJob
        || command instanceof ListTubes || command instanceof ListTubesWatched;
  }

  /**
   * Whether {@code command}'s reply may hold a copy on the heap on its way to the front (a body, a
   * document): what {@code engine.FrontFlow} bounds.
   */
  static boolean isAnsweredWithCopy(Command command) {
    return isAnsweredWithBody(command) || isAnsweredWithDocument(command);
  }

  /** One method per command: the engine implements it, so adding a command is one record here. */
  interface Handler<C, R> {
    R putLine(C c, PutLine cmd);
    R put(C c, Put cmd);
    R jobTooBig(C c, JobTooBig cmd);
    R use(C c, Use cmd);
    R reserve(C c, Reserve cmd);
    R reserveJob(C c, ReserveJob cmd);
    R delete(C c, Delete cmd);
    R release(C c, Release cmd);
    R bury(C c, Bury cmd);
    R touch(C c, Touch cmd);
    R watch(C c, Watch cmd);
    R ignore(C c, Ignore cmd);
    R peek(C c, Peek cmd);
    R peekState(C c, PeekState cmd);
    R kick(C c, Kick cmd);
    R kickJob(C c, KickJob cmd);
    R statsJob(C c, StatsJob cmd);
    R statsTube(C c, StatsTube cmd);
    R stats(C c, Stats cmd);
    R listTubes(C c, ListTubes cmd);
    R listTubeUsed(C c, ListTubeUsed cmd);
    R listTubesWatched(C c, ListTubesWatched cmd);
    R pauseTube(C c, PauseTube cmd);
    R flush(C c, Flush cmd);
    R quit(C c, Quit cmd);
    R invalid(C c, Invalid cmd);
  }

  /**
   * A {@code put} line that passed its checks while its body is still arriving (over max-job-size
   * when {@code isTooBig}). BEHAVIOURS.md 4: 1.12 counts the put and takes its id at this point, so
   * other connections see the id taken; it gets no reply of its own.
   */
  record PutLine(boolean isTooBig) implements Command {
    public static final PutLine FITS = new PutLine(false);
    public static final PutLine TOO_BIG = new PutLine(true);

    public <C, R> R dispatch(Handler<C, R> h, C c) { return h.putLine(c, this); }
  }

  /**
   * {@code put}: the body has been read; {@code hasCrlf} is false when its trailer was wrong. The
   * body is lent by whoever read it until the put is answered (see {@link JobBytes}): the engine
   * copies it into the job store, and into the binlog's record when it writes one.
   */
  record Put(int priority, int delaySeconds, int ttrSeconds, JobBytes body, boolean hasCrlf) implements Command {
    /** A put of {@code body} itself, not a copy: the caller must never modify it afterwards. */
    public Put(int priority, int delaySeconds, int ttrSeconds, byte[] body, boolean hasCrlf) {
      this(priority, delaySeconds, ttrSeconds, JobBytes.of(body), hasCrlf);
    }

    public <C, R> R dispatch(Handler<C, R> h, C c) { return h.put(c, this); }
  }

  /** A {@code put} whose size exceeded max-job-size; its body was read and thrown away. */
  record JobTooBig() implements Command {
    public <C, R> R dispatch(Handler<C, R> h, C c) { return h.jobTooBig(c, this); }
  }

  record Use(String tube) implements Command {
    public <C, R> R dispatch(Handler<C, R> h, C c) { return h.use(c, this); }
  }

  /**
   * {@code reserve} or {@code reserve-with-timeout} ({@code isWithTimeout}, which picks the stats
   * counter); a negative {@code timeoutSeconds} waits with no timeout. BEHAVIOURS.md 3: 1.12 takes
   * a negative {@code reserve-with-timeout} argument to mean "forever", and clients rely on it.
   */
  record Reserve(long timeoutSeconds, boolean isWithTimeout) implements Command {
    /** Plain {@code reserve}. */
    public static final Reserve FOREVER = new Reserve(-1, false);

    /** {@code reserve-with-timeout}, counted as such whatever the number of seconds. */
    public Reserve(long timeoutSeconds) {
      this(timeoutSeconds, true);
    }

    public boolean hasTimeout() {
      return timeoutSeconds >= 0;
    }

    public <C, R> R dispatch(Handler<C, R> h, C c) { return h.reserve(c, this); }
  }

  record ReserveJob(long id) implements Command {
    public <C, R> R dispatch(Handler<C, R> h, C c) { return h.reserveJob(c, this); }
  }

  record Delete(long id) implements Command {
    public <C, R> R dispatch(Handler<C, R> h, C c) { return h.delete(c, this); }
  }

  record Release(long id, int priority, int delaySeconds) implements Command {
    public <C, R> R dispatch(Handler<C, R> h, C c) { return h.release(c, this); }
  }

  /** {@code bury}; {@code keepsPriority} (the event bus without a {@code pri}) keeps the job's own. */
  record Bury(long id, int priority, boolean keepsPriority) implements Command {
    public Bury(long id, int priority) {
      this(id, priority, false);
    }

    public static Bury keepingPriority(long id) {
      return new Bury(id, 0, true);
    }

    public <C, R> R dispatch(Handler<C, R> h, C c) { return h.bury(c, this); }
  }

  record Touch(long id) implements Command {
    public <C, R> R dispatch(Handler<C, R> h, C c) { return h.touch(c, this); }
  }

  record Watch(String tube) implements Command {
    public <C, R> R dispatch(Handler<C, R> h, C c) { return h.watch(c, this); }
  }

  record Ignore(String tube) implements Command {
    public <C, R> R dispatch(Handler<C, R> h, C c) { return h.ignore(c, this); }
  }

  record Peek(long id) implements Command {
    public <C, R> R dispatch(Handler<C, R> h, C c) { return h.peek(c, this); }
  }

  /** {@code peek-ready}, {@code peek-delayed} or {@code peek-buried} on the used tube. */
  record PeekState(JobState state) implements Command {
    public static final PeekState READY = new PeekState(JobState.READY);
    public static final PeekState DELAYED = new PeekState(JobState.DELAYED);
    public static final PeekState BURIED = new PeekState(JobState.BURIED);

    public <C, R> R dispatch(Handler<C, R> h, C c) { return h.peekState(c, this); }
  }

  /** {@code kick <bound>}: bound is an unsigned 32-bit count widened to long. */
  record Kick(long bound) implements Command {
    public <C, R> R dispatch(Handler<C, R> h, C c) { return h.kick(c, this); }
  }

  record KickJob(long id) implements Command {
    public <C, R> R dispatch(Handler<C, R> h, C c) { return h.kickJob(c, this); }
  }

  record StatsJob(long id) implements Command {
    public <C, R> R dispatch(Handler<C, R> h, C c) { return h.statsJob(c, this); }
  }

  record StatsTube(String tube) implements Command {
    public <C, R> R dispatch(Handler<C, R> h, C c) { return h.statsTube(c, this); }
  }

  record Stats() implements Command {
    public static final Stats INSTANCE = new Stats();

    public <C, R> R dispatch(Handler<C, R> h, C c) { return h.stats(c, this); }
  }

  record ListTubes() implements Command {
    public static final ListTubes INSTANCE = new ListTubes();

    public <C, R> R dispatch(Handler<C, R> h, C c) { return h.listTubes(c, this); }
  }

  record ListTubeUsed() implements Command {
    public static final ListTubeUsed INSTANCE = new ListTubeUsed();

    public <C, R> R dispatch(Handler<C, R> h, C c) { return h.listTubeUsed(c, this); }
  }

  record ListTubesWatched() implements Command {
    public static final ListTubesWatched INSTANCE = new ListTubesWatched();

    public <C, R> R dispatch(Handler<C, R> h, C c) { return h.listTubesWatched(c, this); }
  }

  /** {@code pause-tube <tube> <seconds>}: seconds is an unsigned 32-bit number widened to long. */
  record PauseTube(String tube, long delaySeconds) implements Command {
    public <C, R> R dispatch(Handler<C, R> h, C c) { return h.pauseTube(c, this); }
  }

  /**
   * Not a protocol command (no line parses to it): the admin API's and the event bus's flush of
   * the used tube's jobs in {@code states}, answered {@code FLUSHED <count>}. Reserved jobs are
   * never flushed, so {@code states} holds only ready, delayed and buried.
   */
  record Flush(Set<JobState> states) implements Command {
    public static final Flush READY = new Flush(Set.of(JobState.READY));
    public static final Flush DELAYED = new Flush(Set.of(JobState.DELAYED));
    public static final Flush BURIED = new Flush(Set.of(JobState.BURIED));
    public static final Flush ALL = new Flush(Set.of(JobState.READY, JobState.DELAYED, JobState.BURIED));

    public Flush {
      states = Set.copyOf(states);
      if (states.isEmpty() || states.contains(JobState.RESERVED)) {
        throw new IllegalArgumentException("a flush takes ready, delayed or buried jobs, not " + states);
      }
    }

    /** The flush {@code word} names: {@code ready}, {@code delayed}, {@code buried} or {@code all}; null for another word. */
    public static Flush named(String word) {
      if (word == null) {
        return null;
      }
      return switch (word) {
        case "ready" -> READY;
        case "delayed" -> DELAYED;
        case "buried" -> BURIED;
        case "all" -> ALL;
        default -> null;
      };
    }

    public <C, R> R dispatch(Handler<C, R> h, C c) { return h.flush(c, this); }
  }

  /** {@code quit}: no reply; the connection closes. */
  record Quit() implements Command {
    public static final Quit INSTANCE = new Quit();

    public <C, R> R dispatch(Handler<C, R> h, C c) { return h.quit(c, this); }
  }

  /**
   * A line the parser rejected. It still travels in order with the other commands so that its
   * error reply keeps its place; {@code counter} is bumped first where 1.12 counts the line anyway.
   */
  record Invalid(Reply.Word reply, Counter counter) implements Command {
    public static final Invalid BAD_FORMAT = new Invalid(Reply.Word.BAD_FORMAT, Counter.NONE);
    public static final Invalid UNKNOWN_COMMAND = new Invalid(Reply.Word.UNKNOWN_COMMAND, Counter.NONE);

    public <C, R> R dispatch(Handler<C, R> h, C c) { return h.invalid(c, this); }
  }
}
