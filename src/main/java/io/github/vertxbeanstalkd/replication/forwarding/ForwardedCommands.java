package io.github.vertxbeanstalkd.replication.forwarding;

import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.Counter;
import io.github.vertxbeanstalkd.protocol.JobBytes;
import io.github.vertxbeanstalkd.protocol.JobState;
import io.github.vertxbeanstalkd.protocol.Reply;
import io.vertx.core.buffer.Buffer;

/**
 * The binary form of a {@link Command} between a standby and its primary: an opcode, then the
 * record's fields. Every command a TCP connection can send has one, the lines the parser refused
 * included ({@link Command.Invalid} with its counter) and the put lines a body was skipped for, so
 * the primary's engine gets exactly the values the standby's reader made, without parsing again.
 *
 * <p>To change this format (it crosses JVMs, which may run different builds during an upgrade):
 * raise {@link ForwardFrames#VERSION}; never reuse an opcode; enums travel by name, not ordinal.
 */
final class ForwardedCommands implements Command.Handler<Buffer, Void> {
  private static final ForwardedCommands WRITER = new ForwardedCommands();

  private static final byte PUT_LINE = 1;
  private static final byte PUT = 2;
  private static final byte JOB_TOO_BIG = 3;
  private static final byte USE = 4;
  private static final byte RESERVE = 5;
  private static final byte RESERVE_JOB = 6;
  private static final byte DELETE = 7;
  private static final byte RELEASE = 8;
  private static final byte BURY = 9;
  private static final byte TOUCH = 10;
  private static final byte WATCH = 11;
  private static final byte IGNORE = 12;
  private static final byte PEEK = 13;
  private static final byte PEEK_STATE = 14;
  private static final byte KICK = 15;
  private static final byte KICK_JOB = 16;
  private static final byte STATS_JOB = 17;
  private static final byte STATS_TUBE = 18;
  private static final byte STATS = 19;
  private static final byte LIST_TUBES = 20;
  private static final byte LIST_TUBE_USED = 21;
  private static final byte LIST_TUBES_WATCHED = 22;
  private static final byte PAUSE_TUBE = 23;
  private static final byte QUIT = 24;
  private static final byte INVALID = 25;

  private ForwardedCommands() {}

  /** Appends {@code command} to {@code out}. */
  static void write(Command command, Buffer out) {
    command.dispatch(WRITER, out);
  }

  /** Reads the next command; throws IllegalArgumentException on an opcode it does not know. */
  static Command read(WireReader in) {
    byte op = in.readByte();
    return switch (op) {
      case PUT_LINE -> in.readBoolean() ? Command.PutLine.TOO_BIG : Command.PutLine.FITS;
      case PUT -> {
        int priority = in.readInt();
        int delay = in.readInt();
        int ttr = in.readInt();
        boolean hasCrlf = in.readBoolean();
        yield new Command.Put(priority, delay, ttr, JobBytes.of(in.readBytes()), hasCrlf);
      }
      case JOB_TOO_BIG -> new Command.JobTooBig();
      case USE -> new Command.Use(in.readString());
      case RESERVE -> new Command.Reserve(in.readLong(), in.readBoolean());
      case RESERVE_JOB -> new Command.ReserveJob(in.readLong());
      case DELETE -> new Command.Delete(in.readLong());
      case RELEASE -> new Command.Release(in.readLong(), in.readInt(), in.readInt());
      case BURY -> new Command.Bury(in.readLong(), in.readInt(), in.readBoolean());
      case TOUCH -> new Command.Touch(in.readLong());
      case WATCH -> new Command.Watch(in.readString());
      case IGNORE -> new Command.Ignore(in.readString());
      case PEEK -> new Command.Peek(in.readLong());
      case PEEK_STATE -> new Command.PeekState(JobState.valueOf(in.readString()));
      case KICK -> new Command.Kick(in.readLong());
      case KICK_JOB -> new Command.KickJob(in.readLong());
      case STATS_JOB -> new Command.StatsJob(in.readLong());
      case STATS_TUBE -> new Command.StatsTube(in.readString());
      case STATS -> Command.Stats.INSTANCE;
      case LIST_TUBES -> Command.ListTubes.INSTANCE;
      case LIST_TUBE_USED -> Command.ListTubeUsed.INSTANCE;
      case LIST_TUBES_WATCHED -> Command.ListTubesWatched.INSTANCE;
      case PAUSE_TUBE -> new Command.PauseTube(in.readString(), in.readLong());
      case QUIT -> Command.Quit.INSTANCE;
      case INVALID -> new Command.Invalid(Reply.Word.valueOf(in.readString()), Counter.valueOf(in.readString()));
      default -> throw new IllegalArgumentException("unknown forwarded command " + op);
    };
  }

  private static Void op(Buffer out, byte op) {
    out.appendByte(op);
    return null;
  }

  private static Void id(Buffer out, byte op, long id) {
    out.appendByte(op).appendLong(id);
    return null;
  }

  private static Void named(Buffer out, byte op, String name) {
    out.appendByte(op);
    WireReader.writeString(out, name);
    return null;
  }

  @Override
  public Void putLine(Buffer out, Command.PutLine cmd) {
    out.appendByte(PUT_LINE);
    WireReader.writeBoolean(out, cmd.isTooBig());
    return null;
  }

  @Override
  public Void put(Buffer out, Command.Put cmd) {
    out.appendByte(PUT).appendInt(cmd.priority()).appendInt(cmd.delaySeconds()).appendInt(cmd.ttrSeconds());
    WireReader.writeBoolean(out, cmd.hasCrlf());
    out.appendInt(cmd.body().length());
    cmd.body().appendTo(out);
    return null;
  }

  @Override
  public Void jobTooBig(Buffer out, Command.JobTooBig cmd) {
    return op(out, JOB_TOO_BIG);
  }

  @Override
  public Void use(Buffer out, Command.Use cmd) {
    return named(out, USE, cmd.tube());
  }

  @Override
  public Void reserve(Buffer out, Command.Reserve cmd) {
    out.appendByte(RESERVE).appendLong(cmd.timeoutSeconds());
    WireReader.writeBoolean(out, cmd.isWithTimeout());
    return null;
  }

  @Override
  public Void reserveJob(Buffer out, Command.ReserveJob cmd) {
    return id(out, RESERVE_JOB, cmd.id());
  }

  @Override
  public Void delete(Buffer out, Command.Delete cmd) {
    return id(out, DELETE, cmd.id());
  }

  @Override
  public Void release(Buffer out, Command.Release cmd) {
    out.appendByte(RELEASE).appendLong(cmd.id()).appendInt(cmd.priority()).appendInt(cmd.delaySeconds());
    return null;
  }

  @Override
  public Void bury(Buffer out, Command.Bury cmd) {
    out.appendByte(BURY).appendLong(cmd.id()).appendInt(cmd.priority());
    WireReader.writeBoolean(out, cmd.keepsPriority());
    return null;
  }

  @Override
  public Void touch(Buffer out, Command.Touch cmd) {
    return id(out, TOUCH, cmd.id());
  }

  @Override
  public Void watch(Buffer out, Command.Watch cmd) {
    return named(out, WATCH, cmd.tube());
  }

  @Override
  public Void ignore(Buffer out, Command.Ignore cmd) {
    return named(out, IGNORE, cmd.tube());
  }

  @Override
  public Void peek(Buffer out, Command.Peek cmd) {
    return id(out, PEEK, cmd.id());
  }

  @Override
  public Void peekState(Buffer out, Command.PeekState cmd) {
    return named(out, PEEK_STATE, cmd.state().name());
  }

  @Override
  public Void kick(Buffer out, Command.Kick cmd) {
    return id(out, KICK, cmd.bound());
  }

  @Override
  public Void kickJob(Buffer out, Command.KickJob cmd) {
    return id(out, KICK_JOB, cmd.id());
  }

  @Override
  public Void statsJob(Buffer out, Command.StatsJob cmd) {
    return id(out, STATS_JOB, cmd.id());
  }

  @Override
  public Void statsTube(Buffer out, Command.StatsTube cmd) {
    return named(out, STATS_TUBE, cmd.tube());
  }

  @Override
  public Void stats(Buffer out, Command.Stats cmd) {
    return op(out, STATS);
  }

  @Override
  public Void listTubes(Buffer out, Command.ListTubes cmd) {
    return op(out, LIST_TUBES);
  }

  @Override
  public Void listTubeUsed(Buffer out, Command.ListTubeUsed cmd) {
    return op(out, LIST_TUBE_USED);
  }

  @Override
  public Void listTubesWatched(Buffer out, Command.ListTubesWatched cmd) {
    return op(out, LIST_TUBES_WATCHED);
  }

  @Override
  public Void pauseTube(Buffer out, Command.PauseTube cmd) {
    named(out, PAUSE_TUBE, cmd.tube());
    out.appendLong(cmd.delaySeconds());
    return null;
  }

  @Override
  public Void flush(Buffer out, Command.Flush cmd) {
    // No line parses to a flush: it comes from the admin API or the event bus, never forwarded.
    throw new IllegalArgumentException("a flush is not a connection's command");
  }

  @Override
  public Void quit(Buffer out, Command.Quit cmd) {
    return op(out, QUIT);
  }

  @Override
  public Void invalid(Buffer out, Command.Invalid cmd) {
    out.appendByte(INVALID);
    WireReader.writeString(out, cmd.reply().name());
    WireReader.writeString(out, cmd.counter().name());
    return null;
  }
}
