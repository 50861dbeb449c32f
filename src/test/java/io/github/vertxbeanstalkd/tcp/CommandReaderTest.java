package io.github.vertxbeanstalkd.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.protocol.Command;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Framing: the same commands come out whether input arrives at once or one byte per buffer. */
class CommandReaderTest {
  private final List<String> seen = new ArrayList<>();
  private CommandReader reader = newReader(65_535);

  private CommandReader newReader(long maxJobSize) {
    return new CommandReader(maxJobSize, new CommandReader.Listener() {
      @Override
      public void onCommand(Command command) {
        seen.add(describe(command));
      }

      @Override
      public void onQuit() {
        seen.add("QUIT");
      }
    });
  }

  /** A command as the tests compare it: a put with its priority and body, an error by its reply. */
  static String describe(Command c) {
    if (c instanceof Command.Put put) {
      return "PUT " + put.priority() + " " + new String(put.body().toArray(), StandardCharsets.ISO_8859_1)
          + (put.hasCrlf() ? "" : " EXPECTED_CRLF");
    }
    if (c instanceof Command.Invalid invalid) {
      return invalid.reply().name();
    }
    return c.toString();
  }

  private List<String> feed(String input, int chunkBytes) {
    byte[] bytes = input.getBytes(StandardCharsets.ISO_8859_1);
    for (int i = 0; i < bytes.length; i += chunkBytes) {
      int end = Math.min(bytes.length, i + chunkBytes);
      byte[] chunk = new byte[end - i];
      System.arraycopy(bytes, i, chunk, 0, chunk.length);
      reader.feed(Unpooled.wrappedBuffer(chunk));
    }
    return seen;
  }

  /** Feeds {@code input} as separate buffers cut at the increasing offsets {@code cuts}; a repeated offset cuts once. */
  private void feedCutAt(String input, int... cuts) {
    byte[] bytes = input.getBytes(StandardCharsets.ISO_8859_1);
    int from = 0;
    for (int cut : cuts) {
      if (cut > from) {
        reader.feed(Unpooled.wrappedBuffer(bytes, from, cut - from));
        from = cut;
      }
    }
    reader.feed(Unpooled.wrappedBuffer(bytes, from, bytes.length - from));
  }

  @ParameterizedTest(name = "chunks of {0} bytes")
  @ValueSource(ints = {1, 2, 3, 7, 64, 100_000})
  void framingDoesNotDependOnChunking(int chunkBytes) {
    String input = "use t1\r\nput 0 0 60 7\r\nab\r\ncde\r\nput 1 0 60 0\r\n\r\nstats\r\n"
        + "put 2 0 60 3\r\nabcXYpeek 1\r\n" + "x".repeat(300) + "\r\nlist-tubes\r\n";
    assertEquals(List.of("Use[tube=t1]", "PUT 0 ab\r\ncde", "PUT 1 ", "Stats[]", "PUT 2 abc EXPECTED_CRLF",
        "Peek[id=1]", "BAD_FORMAT", "ListTubes[]"), feed(input, chunkBytes));
    assertEquals(0, reader.heldBytes());
  }

  @ParameterizedTest(name = "chunks of {0} bytes")
  @ValueSource(ints = {1, 5, 1000})
  void oversizedBodyIsSwallowedWhateverItsBytes(int chunkBytes) {
    reader = newReader(10);
    String input = "put 0 0 60 11 junk\r\n" + "\r\n\r\n\r\nxyz\r\nQQ" + "stats\r\n";
    assertEquals(List.of("JobTooBig[]", "Stats[]"), feed(input, chunkBytes));
  }

  @Test
  void bodyLargerThanOneChunkIsAssembledExactly() {
    reader = newReader(1 << 20);
    String body = "0123456789".repeat(20_000);
    feed("put 5 0 60 " + body.length() + "\r\n" + body + "\r\n", 9_000);
    assertEquals(List.of("PUT 5 " + body), seen);
  }

  @ParameterizedTest(name = "chunks of {0} bytes")
  @ValueSource(ints = {1, 13, 1000})
  void overlongLineGivesOneBadFormatAndTheNextLineWorks(int chunkBytes) {
    // BEHAVIOURS.md 1: 224 bytes without CR LF are dropped through the next CR LF.
    String input = "use " + "a".repeat(500) + "\r\nstats\r\n";
    assertEquals(List.of("BAD_FORMAT", "Stats[]"), feed(input, chunkBytes));
  }

  /**
   * BEHAVIOURS.md 1: 222 bytes and the CR LF fill the 224-byte line buffer; one byte more is one
   * BAD_FORMAT, and the next line is read normally wherever one or two reads split the input. The
   * reference's quirk of losing a CR that is a buffer load's 224th byte is not kept.
   */
  @ParameterizedTest(name = "a line of {0} bytes before its CR LF")
  @ValueSource(ints = {222, 223, 224, 300})
  void aLineAroundTheLimitGivesTheSameCommandsWhereverReadsSplitIt(int length) {
    String input = "kick " + "0".repeat(length - 6) + "5\r\nstats\r\n";
    List<String> expected = List.of(length <= 222 ? "Kick[bound=5]" : "BAD_FORMAT", "Stats[]");
    for (int first = 1; first < input.length(); first++) {
      for (int second = first; second < input.length(); second++) {
        reader = newReader(65_535);
        seen.clear();
        feedCutAt(input, first, second);
        assertEquals(expected, seen, "reads cut at " + first + " and " + second);
        assertEquals(0, reader.heldBytes());
      }
    }
  }

  @Test
  void anUnendedLineIsHeldUpTo223BytesAndDroppedAtThe224th() {
    // BEHAVIOURS.md 1: what is read of a line stays bounded, however the reads fall.
    for (int i = 1; i <= 223; i++) {
      reader.feed(Unpooled.wrappedBuffer(new byte[] {'x'}));
      assertEquals(i, reader.heldBytes());
    }
    reader.feed(Unpooled.wrappedBuffer(new byte[] {'x'}));
    assertEquals(0, reader.heldBytes());
    for (int cut = 1; cut < 224; cut++) {
      reader = newReader(65_535);
      feedCutAt("x".repeat(224), cut, cut);
      assertEquals(0, reader.heldBytes(), "reads cut at " + cut);
    }
    assertEquals(List.of(), seen);
  }

  @Test
  void anOverlongLineReadOneByteAtATimeIsAnsweredOnlyAtItsLineEnd() {
    // BEHAVIOURS.md 1: bytes are discarded until the next CR LF, and only then comes BAD_FORMAT.
    for (byte b : ("b".repeat(300) + "\r").getBytes(StandardCharsets.US_ASCII)) {
      reader.feed(Unpooled.wrappedBuffer(new byte[] {b}));
      assertEquals(List.of(), seen);
    }
    reader.feed(Unpooled.wrappedBuffer(new byte[] {'\n'}));
    assertEquals(List.of("BAD_FORMAT"), seen);
    feed("stats\r\n", 1);
    assertEquals(List.of("BAD_FORMAT", "Stats[]"), seen);
  }

  @Test
  void crLfSplitAcrossBuffersEndsADiscardedLine() {
    feed("x".repeat(300) + "\r", 1_000);
    feed("\nstats\r\n", 1_000);
    assertEquals(List.of("BAD_FORMAT", "Stats[]"), seen);
  }

  @Test
  void lineOf222BytesIsParsedAndOf223IsBadFormat() {
    feed("kick " + "0".repeat(216) + "5\r\n", 1);
    feed("kick " + "0".repeat(217) + "5\r\n", 1);
    assertEquals(List.of("Kick[bound=5]", "BAD_FORMAT"), seen);
  }

  @Test
  void putWaitingForItsBodyIsAnnouncedOnce() {
    // BEHAVIOURS.md 4: the id is taken when the line passes, before the body arrives.
    feed("put 3 0 60 5\r\nab", 100);
    assertEquals(true, reader.announcePendingPut());
    assertEquals(false, reader.isPendingPutTooBig());
    assertEquals(false, reader.announcePendingPut());
    feed("cde\r\n", 100);
    assertEquals(List.of("PUT 3 abcde"), seen);
    assertEquals(false, reader.announcePendingPut());
  }

  @Test
  void oversizedPutWaitingForItsBodyIsAnnouncedAsTooBig() {
    reader = newReader(3);
    feed("put 0 0 60 5\r\nab", 100);
    assertEquals(true, reader.announcePendingPut());
    assertEquals(true, reader.isPendingPutTooBig());
    feed("cde\r\n", 100);
    assertEquals(List.of("JobTooBig[]"), seen);
  }

  @Test
  void looseReserveWithTimeoutArgumentsSurviveOneBytePerBuffer() {
    // BEHAVIOURS.md 3: strtol reads a sign and leading white space, and stops at the first non-digit.
    feed("reserve-with-timeout -1\r\nreserve-with-timeout \t+2x\r\nreserve-with-timeout \r\n", 1);
    assertEquals(List.of("Reserve[timeoutSeconds=-1, isWithTimeout=true]",
        "Reserve[timeoutSeconds=2, isWithTimeout=true]", "Reserve[timeoutSeconds=0, isWithTimeout=true]"), seen);
  }

  @Test
  void bareLfDoesNotEndALine() {
    feed("list-tube-used\n\r\nstats\r\n", 1);
    assertEquals(List.of("BAD_FORMAT", "Stats[]"), seen);
  }

  @Test
  void quitStopsReadingWhatFollows() {
    feed("stats\r\nquit\r\nstats\r\n", 100);
    assertEquals(List.of("Stats[]", "QUIT"), seen);
    assertTrue(reader.isPaused());
  }

  @Test
  void pausedReaderHoldsInputAndEmitsItOnResume() {
    reader.pause();
    feed("stats\r\nlist-tubes\r\n", 3);
    assertEquals(List.of(), seen);
    assertEquals(19, reader.heldBytes());
    reader.resume();
    assertEquals(List.of("Stats[]", "ListTubes[]"), seen);
    assertEquals(0, reader.heldBytes());
  }

  @Test
  void pausedReaderDoesNotMistakeQueuedLinesForAnOverlongLine() {
    reader.pause();
    feed("stats\r\n".repeat(100), 700);
    reader.resume();
    assertEquals(100, seen.size());
    assertTrue(seen.stream().allMatch("Stats[]"::equals));
  }

  /** Puts of many sizes, bodies full of CR LF, between other commands; the bodies, in order. */
  private static byte[] manyPuts(List<byte[]> bodies) {
    Random random = new Random(11);
    ByteArrayOutputStream in = new ByteArrayOutputStream();
    for (int size : new int[] {0, 1, 2, 100, 1023, 1024, 1025, 5000, 16_385, 70_000, 100}) {
      byte[] body = new byte[size];
      random.nextBytes(body);
      for (int i = 0; i + 1 < size; i += 97) {
        body[i] = '\r';
        body[i + 1] = '\n';
      }
      bodies.add(body);
      in.writeBytes(("put " + size + " 0 60 " + size + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      in.writeBytes(body);
      in.writeBytes("\r\nstats\r\n".getBytes(StandardCharsets.ISO_8859_1));
    }
    return in.toByteArray();
  }

  /** Feeds {@code input} cut at the given ends; returns the puts' bodies, and checks the rest came too. */
  private List<Command.Put> feedCut(byte[] input, int[] cuts) {
    List<Command.Put> puts = new ArrayList<>();
    reader = new CommandReader(1 << 20, new CommandReader.Listener() {
      @Override
      public void onCommand(Command command) {
        seen.add(command instanceof Command.Put ? "PUT" : describe(command));
        if (command instanceof Command.Put put) {
          puts.add(put);
        }
      }

      @Override
      public void onQuit() {
        seen.add("QUIT");
      }
    });
    int from = 0;
    for (int end : cuts) {
      byte[] chunk = new byte[end - from];
      System.arraycopy(input, from, chunk, 0, chunk.length);
      reader.feed(Unpooled.wrappedBuffer(chunk));
      from = end;
    }
    assertEquals(0, reader.heldBytes());
    return puts;
  }

  private void assertSamePuts(List<byte[]> bodies, List<Command.Put> puts) {
    assertEquals(bodies.size(), puts.size());
    for (int i = 0; i < bodies.size(); i++) {
      Command.Put put = puts.get(i);
      assertArrayEquals(bodies.get(i), put.body().toArray(), "body " + i);
      assertEquals(bodies.get(i).length, put.priority());
      assertTrue(put.hasCrlf());
      // However the reads fell, a body lies in the input chunks it arrived in, one range per chunk.
      assertTrue(put.body().pieces() <= bodies.get(i).length / ChunkPool.CHUNK_BYTES + 2,
          put.body().pieces() + " pieces for " + bodies.get(i).length + " bytes");
    }
    for (int i = 0; i < seen.size(); i++) {
      assertEquals(i % 2 == 0 ? "PUT" : "Stats[]", seen.get(i));
    }
  }

  @Test
  void bodiesAreTheSameFedAtOnceOrOneBytePerBuffer() {
    List<byte[]> bodies = new ArrayList<>();
    byte[] input = manyPuts(bodies);
    List<Command.Put> atOnce = feedCut(input, new int[] {input.length});
    assertSamePuts(bodies, atOnce);
    seen.clear();
    int[] oneByte = new int[input.length];
    for (int i = 0; i < input.length; i++) {
      oneByte[i] = i + 1;
    }
    List<Command.Put> byteByByte = feedCut(input, oneByte);
    assertSamePuts(bodies, byteByByte);
    assertEquals(atOnce, byteByByte);
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void bodiesAreTheSameInRandomSplits(long seed) {
    List<byte[]> bodies = new ArrayList<>();
    byte[] input = manyPuts(bodies);
    Random random = new Random(seed);
    List<Integer> cuts = new ArrayList<>();
    for (int at = 0; at < input.length; ) {
      // Mostly short reads, some long ones, so that bodies straddle reads every which way.
      at = Math.min(input.length, at + 1 + (random.nextInt(4) == 0 ? random.nextInt(20_000) : random.nextInt(300)));
      cuts.add(at);
    }
    assertSamePuts(bodies, feedCut(input, cuts.stream().mapToInt(Integer::intValue).toArray()));
  }

  @Test
  void pausedInTheMiddleOfABodyTheRestComesOnResume() {
    feed("put 0 0 60 10\r\n01234", 100);
    reader.pause();
    feed("56789\r\nstats\r\n", 3);
    assertEquals(List.of(), seen);
    assertEquals(14, reader.heldBytes());
    reader.resume();
    assertEquals(List.of("PUT 0 0123456789", "Stats[]"), seen);
    assertEquals(0, reader.heldBytes());
  }
}
