package io.github.vertxbeanstalkd.replication.forwarding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.vertxbeanstalkd.bus.EngineReply;
import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.Counter;
import io.github.vertxbeanstalkd.protocol.JobBytes;
import io.github.vertxbeanstalkd.protocol.JobState;
import io.github.vertxbeanstalkd.protocol.Reply;
import io.github.vertxbeanstalkd.protocol.ReplyEncoder;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The forwarding wire: every command a connection can send arrives as the same value; replies as their bytes. */
class ForwardedCommandsTest {
  private static final byte[] BODY = "a\r\nbody\0\377".getBytes(StandardCharsets.ISO_8859_1);

  /** One of every command, with values at their edges. */
  static List<Command> everyCommand() {
    return List.of(
        Command.PutLine.FITS, Command.PutLine.TOO_BIG,
        new Command.Put(-1, Integer.MIN_VALUE, 0, BODY, true),
        new Command.Put(1, 2, 3, JobBytes.EMPTY, false),
        new Command.Put(1, 2, 3, JobBytes.builder(5).add(BODY, 0, 2).add(BODY, 4, 3).build(), true),
        new Command.JobTooBig(),
        new Command.Use("a-b+c/d;e.f$g_h(i)"),
        Command.Reserve.FOREVER, new Command.Reserve(0), new Command.Reserve(4294967295L, true),
        new Command.Reserve(-1, true),
        new Command.ReserveJob(-1), new Command.Delete(Long.MAX_VALUE), new Command.Release(7, -1, 5),
        new Command.Bury(8, 9), Command.Bury.keepingPriority(10), new Command.Touch(11),
        new Command.Watch("w"), new Command.Ignore("default"), new Command.Peek(12),
        Command.PeekState.READY, Command.PeekState.DELAYED, Command.PeekState.BURIED,
        new Command.PeekState(JobState.RESERVED),
        new Command.Kick(4294967295L), new Command.KickJob(13), new Command.StatsJob(14),
        new Command.StatsTube("t"), Command.Stats.INSTANCE, Command.ListTubes.INSTANCE,
        Command.ListTubeUsed.INSTANCE, Command.ListTubesWatched.INSTANCE, new Command.PauseTube("p", 4294967295L),
        Command.Quit.INSTANCE, Command.Invalid.BAD_FORMAT, Command.Invalid.UNKNOWN_COMMAND,
        new Command.Invalid(Reply.Word.BAD_FORMAT, Counter.PAUSE_TUBE));
  }

  @Test
  void everyCommandArrivesAsTheSameValue() {
    Buffer wire = Buffer.buffer();
    List<Command> sent = everyCommand();
    ForwardFrames.submit(wire, 42, sent);
    WireReader in = new WireReader(wire);
    assertEquals(ForwardFrames.SUBMIT, in.readByte());
    assertEquals(42, in.readLong());
    assertEquals(sent.size(), in.readInt());
    for (Command c : sent) {
      Command got = ForwardedCommands.read(in);
      if (c instanceof Command.Put put) {
        Command.Put p = (Command.Put) got;
        assertEquals(List.of(put.priority(), put.delaySeconds(), put.ttrSeconds()),
            List.of(p.priority(), p.delaySeconds(), p.ttrSeconds()));
        assertEquals(put.hasCrlf(), p.hasCrlf());
        assertArrayEquals(put.body().toArray(), p.body().toArray());
      } else {
        assertEquals(c, got);
      }
    }
    assertFalse(in.hasMore());
  }

  @Test
  void theListCoversEveryKindOfCommand() {
    Set<Class<?>> covered = new HashSet<>();
    everyCommand().forEach(c -> covered.add(c.getClass()));
    Set<Class<?>> forwarded = new HashSet<>(Set.of(Command.class.getPermittedSubclasses()));
    // No line parses to a flush (the admin API's and the bus's): a connection never forwards one.
    forwarded.remove(Command.Flush.class);
    assertEquals(forwarded, covered);
  }

  @Test
  void repliesTravelAsTheEncodersBytes() {
    List<Reply> replies = List.of(Reply.Word.DEADLINE_SOON, Reply.JobBody.reserved(3, BODY, "t"),
        Reply.Number.watching(2), new Reply.Using("x"));
    Buffer wire = ForwardFrames.toStandby();
    ForwardFrames.replies(wire, 9, new EngineReply(null, replies, true, false, true));
    WireReader in = ForwardFrames.read(wire);
    assertEquals(ForwardFrames.REPLIES, in.readByte());
    assertEquals(9, in.readLong());
    assertEquals(ForwardFrames.IS_COMPLETE | ForwardFrames.HAS_ENDED, in.readByte());
    assertEquals(replies.size(), in.readInt());
    for (Reply r : replies) {
      assertArrayEquals(ReplyEncoder.encode(r).getBytes(), in.readBytes());
    }
    assertFalse(in.hasMore());
  }

  @Test
  void aMessageOfAnotherVersionIsRefused() {
    Buffer wire = Buffer.buffer().appendByte((byte) (ForwardFrames.VERSION + 1));
    assertThrows(IllegalArgumentException.class, () -> ForwardFrames.read(wire));
  }

  @Test
  void anUnknownCommandIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> ForwardedCommands.read(new WireReader(Buffer.buffer().appendByte((byte) 99))));
  }

  @Test
  void anEncodedReplyIsWrittenAsItCame() {
    byte[] bytes = "RESERVED 1 2\r\nab\r\n".getBytes(StandardCharsets.US_ASCII);
    assertArrayEquals(bytes, ReplyEncoder.encode(new Reply.Encoded(bytes)).getBytes());
  }
}
