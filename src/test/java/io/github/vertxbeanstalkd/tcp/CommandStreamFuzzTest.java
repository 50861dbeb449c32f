package io.github.vertxbeanstalkd.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.github.vertxbeanstalkd.bus.Scope;
import io.github.vertxbeanstalkd.bus.SessionKey;
import io.github.vertxbeanstalkd.engine.QueueEngine;
import io.github.vertxbeanstalkd.engine.ServerInfo;
import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.Reply;
import io.github.vertxbeanstalkd.protocol.ReplyEncoder;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Coverage-guided fuzzing of the TCP front's input path: arbitrary bytes, cut into arbitrary
 * buffers, go through the production {@link CommandReader} (with its pooled chunks, pinned bodies and
 * batches handed out and answered as {@link Connection} does) into a real {@link QueueEngine} on a fake
 * clock, and every reply through {@link ReplyEncoder}. Properties: nothing throws; the commands are
 * exactly what {@link ReferenceFraming} reads from the whole stream (a body is never read as commands,
 * and its bytes are intact when the engine copies them); every command gets one well-formed reply.
 */
class CommandStreamFuzzTest {
  private static final long[] MAX_JOB_SIZES = {0, 1, 7, 100, 65_535};

  @FuzzTest(maxDuration = "5s")
  void bytesInAnySplit(FuzzedDataProvider data) {
    long maxJobSizeBytes = data.pickValue(MAX_JOB_SIZES);
    byte[] cuts = data.consumeBytes(16);
    long lateAnswers = data.consumeLong();
    int repeats = data.consumeInt(1, 3);
    int padBytes = data.consumeInt(0, 9_000);
    byte[] stream = stream(padBytes, data.consumeRemainingAsBytes(), repeats);

    Run run = new Run(maxJobSizeBytes, lateAnswers);
    try {
      int at = 0;
      for (int i = 0; at < stream.length && !run.isStuck; i++) {
        int n = Math.min(stream.length - at, pieceBytes(cuts, i));
        run.feed(stream, at, n);
        at += n;
      }
      run.answerAll();
      List<String> expected = ReferenceFraming.commands(stream, maxJobSizeBytes);
      if (run.isStuck) {
        // A reserve waits for a job no one will put: what was read is the start of what was sent.
        assertEquals(expected.subList(0, Math.min(expected.size(), run.seen.size())), run.seen);
      } else {
        assertEquals(expected, run.seen);
      }
    } finally {
      run.engine.close();
    }
  }

  /** A put of {@code padBytes} first (stored or skipped), so later bytes land anywhere in an input chunk. */
  private static byte[] stream(int padBytes, byte[] tail, int repeats) {
    Buffer b = Buffer.buffer();
    if (padBytes > 0) {
      b.appendString("put 0 0 1 " + padBytes + "\r\n").appendBytes(new byte[padBytes]).appendString("\r\n");
    }
    for (int i = 0; i < repeats; i++) {
      b.appendBytes(tail);
    }
    return b.getBytes();
  }

  /** Sizes from 1 byte to past a whole input chunk, so a line or body may cross chunk boundaries. */
  private static int pieceBytes(byte[] cuts, int i) {
    if (cuts.length == 0) {
      return Integer.MAX_VALUE;
    }
    int b = cuts[i % cuts.length] & 0xff;
    return (b & 0x80) == 0 ? 1 + b : (1 + (b & 0x7f)) * 97;
  }

  /** One connection: the reader, its batch with the engine, and what came out. */
  private static final class Run implements CommandReader.Listener {
    final List<String> seen = new ArrayList<>();
    final FuzzClock clock = new FuzzClock();
    final List<Reply> replies = new ArrayList<>();
    final QueueEngine engine;
    final SessionKey key = new SessionKey("fuzz", 1);
    final CommandReader reader;
    final long lateAnswers;
    List<Command> batch = new ArrayList<>();
    List<Command> inFlight;
    int batches;
    boolean isQuit;
    boolean isStuck;
    boolean isBatchComplete;
    /** Commands of {@link #batch} answered with a document, as Connection counts them. */
    int documents;

    Run(long maxJobSizeBytes, long lateAnswers) {
      this.lateAnswers = lateAnswers;
      engine = new QueueEngine(clock, r -> {
        if (r.key().equals(key)) {
          replies.addAll(r.replies());
          isBatchComplete |= r.isComplete();
        }
      }, ServerInfo.forTests(), maxJobSizeBytes);
      engine.open(key, true);
      reader = new CommandReader(maxJobSizeBytes, this, new ChunkPool());
    }

    @Override
    public void onCommand(Command command) {
      batch.add(command);
      documents += Command.isAnsweredWithDocument(command) ? 1 : 0;
      if (batch.size() >= BatchLimits.MAX_BATCH_COMMANDS || documents >= BatchLimits.MAX_BATCH_DOCUMENTS) {
        reader.pause();
      }
    }

    @Override
    public void onQuit() {
      isQuit = true;
    }

    void feed(byte[] stream, int from, int n) {
      if (isQuit) {
        return;
      }
      reader.feed(Unpooled.wrappedBuffer(stream, from, n));
      dispatch();
      // Some batches are answered only after more input arrived (read ahead while paused).
      if (inFlight != null && (lateAnswers >>> (batches & 63) & 1) == 0) {
        answer();
      }
    }

    /** Answers what is left; a quit counts once every command before it is answered, as Connection closes then. */
    void answerAll() {
      while (inFlight != null && !isStuck) {
        answer();
      }
      if (isQuit && !isStuck) {
        seen.add("QUIT");
      }
    }

    private void dispatch() {
      if (inFlight != null) {
        return;
      }
      if (reader.announcePendingPut()) {
        engine.submit(key, List.of(reader.isPendingPutTooBig() ? Command.PutLine.TOO_BIG : Command.PutLine.FITS),
            Scope.NONE);
      }
      if (!batch.isEmpty()) {
        inFlight = batch;
        batch = new ArrayList<>();
        documents = 0;
        batches++;
        reader.batchDispatched();
        reader.pause();
      }
    }

    /** The engine runs the batch in flight, as it would when the batch reaches it, and its replies are written. */
    private void answer() {
      for (Command c : inFlight) {
        seen.add(ReferenceFraming.describe(c));
      }
      replies.clear();
      isBatchComplete = false;
      engine.submit(key, inFlight, Scope.NONE);
      for (int turns = 0; !isBatchComplete && turns < 16; turns++) {
        while (engine.hasYieldedWork()) {
          engine.resumeYielded();
        }
        long next = engine.nextDeadlineNanos();
        if (next == Long.MAX_VALUE) {
          break;
        }
        clock.nanos = Math.max(clock.nanos, next);
        engine.tick();
      }
      if (!isBatchComplete) {
        isStuck = true;
        return;
      }
      assertEquals(inFlight.size(), replies.size(), () -> "replies to " + inFlight + ": " + replies);
      for (Reply r : replies) {
        WireReply.check(ReplyEncoder.encode(r).getBytes());
      }
      inFlight = null;
      reader.batchAnswered();
      if (!isQuit) {
        reader.resume();
      }
      dispatch();
    }
  }

  /** The engine's time, moved by the run to its next deadline when a batch waits. */
  private static final class FuzzClock implements io.github.vertxbeanstalkd.engine.Clock {
    long nanos = 1_000_000L * 1_000_000_000L;

    @Override
    public long nanos() {
      return nanos;
    }

    @Override
    public long epochMillis() {
      return 1_800_000_000_000L + nanos / 1_000_000L;
    }
  }
}
